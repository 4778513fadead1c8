// State that lives as long as one simulated process: the replacement for a `static` in an
// engine, which would outlive a simulated kill.
import CVirtualClock
import Synchronization

/// A value per simulated process, in place of a `static var`.
///
/// A `static` lives as long as the real process that runs the simulation, so state an engine
/// keeps in one survives a simulated force-quit, crash, reboot or purge, and hides exactly the
/// bugs Lifeline looks for (an engine that "remembers" it was tracking without reading its
/// saved record). Keep it in a `ProcessLocal` instead: while a simulated process runs (its
/// callbacks and its jobs) `value` is that process's, starting from `initial()` at its first
/// read; when the process ends, the value goes with it. Outside a simulation there is one
/// value for the real process.
///
///     enum Session {
///         static let isTracking = ProcessLocal { false }
///     }
///     Session.isTracking.value = true   // gone at the next simulated launch
public final class ProcessLocal<Value: Sendable>: @unchecked Sendable {
    private let initial: @Sendable () -> Value
    private let outside: Mutex<Value?> = Mutex(nil)

    public init(_ initial: @escaping @Sendable () -> Value) { self.initial = initial }

    /// The value for the simulated process running on this thread; nil outside a simulated
    /// process (where `value` would read the one value the real process shares).
    public var valueInProcess: Value? {
        VirtualProcess.current != nil ? value : nil
    }

    /// Sets the value for the simulated process running on this thread; outside a simulated
    /// process it does nothing (so nothing set for a process leaks to the real one).
    public func setInProcess(_ newValue: Value) {
        if VirtualProcess.current != nil { value = newValue }
    }

    /// The value for the simulated process running on this thread (or the real process's,
    /// outside a simulation).
    public var value: Value {
        get {
            if let process = VirtualProcess.current {
                if let stored = process.locals[ObjectIdentifier(self)] { return stored as! Value }
                let fresh = initial()
                process.locals[ObjectIdentifier(self)] = fresh
                return fresh
            }
            return outside.withLock { stored in
                if let stored { return stored }
                let fresh = initial()
                stored = fresh
                return fresh
            }
        }
        set {
            if let process = VirtualProcess.current {
                process.locals[ObjectIdentifier(self)] = newValue
            } else {
                outside.withLock { $0 = newValue }
            }
        }
    }
}
