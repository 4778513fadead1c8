// What a property says about one value (layer 2): it passes, fails, or does not apply.

/// Thrown by a property whose precondition does not hold for a value: the case is discarded,
/// neither a pass nor a failure (QuickCheck's `==>`, Hypothesis's `assume`).
public struct Discard: Error {
    public init() {}
}

/// Thrown by a property that does not hold, with what went wrong.
public struct PropertyFailure: Error, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Discards the case unless `condition` holds.
public func assume(_ condition: Bool) throws {
    if !condition { throw Discard() }
}

/// Fails the property with `message` unless `condition` holds.
public func check(
    _ condition: Bool, _ message: @autoclosure () -> String = "the property does not hold"
) throws {
    if !condition { throw PropertyFailure(message()) }
}
