// Foundation's user defaults on the simulated device (layer 4): `UserDefaults.standard` and
// suites, kept in the world's saved record, with its durability rules.
import Foundation
import VirtualConcurrency
import World

/// `UserDefaults`, kept on the simulated device: `standard` and every suite are the world's
/// saved record (`LocationServices.userDefaults`), so what the app writes obeys iOS's rules for
/// it, and the invariants see what reached the disk:
///
/// - a change reads back at once in the process that made it, and reaches the disk
///   `savedRecordWriteDelay` later with every change made until then; a process ended before
///   that write loses them (R-A1, R-F3);
/// - before the first unlock after a boot the stored values read as absent, and a write due
///   then fails (R-D9);
/// - `synchronize()` changes nothing (Apple: "this method is unnecessary and shouldn't be
///   used").
///
/// A suite (`UserDefaults(suiteName:)`) is a separate domain of keys in the same record. The
/// registration domain (`register(defaults:)`) is the process's own: it is never written to
/// disk, and a value set in the app's domain wins over it, as in Foundation.
///
/// Values are what the saved record holds: `Bool`, `Int`, `Double` (a `Float` is stored as
/// one) and `String`. Foundation's getters convert between them as Foundation does for the
/// common cases (`bool(forKey:)` of the string "YES" or the number 1 is true). Setting any
/// other type (`Date`, `Data`, arrays, dictionaries) stops the process with a message naming
/// the key: the saved record cannot hold it, and losing it silently would look like the app's
/// bug.
///
/// Outside a simulated process there is no device: reads are empty and writes do nothing.
///
/// A subclass of `NSObject`, as Foundation's is, so it passes where an object is expected.
///
/// A file that imports Foundation and LifelineKit names this class with a scoped import,
/// which takes precedence over Foundation's:
///
///     import Foundation
///     #if canImport(UIKit)
///         import UIKit
///     #else
///         import LifelineKit
///         import class LifelineKit.UserDefaults
///     #endif
open class UserDefaults: NSObject, @unchecked Sendable {
    /// The domain's prefix in the saved record's keys: empty for the app's own domain.
    private let keyPrefix: String

    /// `UserDefaults.standard`: the app's own domain, one object per simulated process.
    open class var standard: UserDefaults { standardOfProcess.value }

    /// The simulated process's `standard`.
    private static let standardOfProcess = ProcessLocal { UserDefaults(prefix: "") }

    /// `init()`: the app's own domain, like `standard`.
    public override convenience init() { self.init(prefix: "") }

    /// `init?(suiteName:)`: the domain `suitename` (an app group's, say); nil gives the app's
    /// own domain. Nil for `NSGlobalDomain`, as Foundation returns.
    public convenience init?(suiteName suitename: String?) {
        guard let suitename else {
            self.init(prefix: "")
            return
        }
        guard suitename != "NSGlobalDomain" else { return nil }
        self.init(prefix: "suite \(suitename): ")
    }

    private init(prefix: String) {
        keyPrefix = prefix
        super.init()
    }

    /// The process's registration domain, shared by every domain (`register(defaults:)`).
    static let registered = ProcessLocal<RegisteredDefaults> { RegisteredDefaults() }

    /// The world's saved record of the calling process.
    private var record: SavedRecord? { ProcessScope.current?.services?.userDefaults }

    // MARK: - Registering

    /// `register(defaults:)`: values read when a key has none, in this process only (never
    /// written to disk).
    open func register(defaults registrationDictionary: [String: Any]) {
        for key in registrationDictionary.keys.sorted() {
            guard let value = registrationDictionary[key] else { continue }
            Self.registered.value.values[key] = Self.saved(value, forKey: key)
        }
    }

    // MARK: - Reading

    /// `object(forKey:)`: the value as a `Bool`, `Int`, `Double` or `String`; the registered
    /// default when the domain holds none; nil when neither does.
    open func object(forKey defaultName: String) -> Any? {
        guard let value = saved(forKey: defaultName) else { return nil }
        switch value {
        case .bool(let bool): return bool
        case .int(let int): return int
        case .double(let double): return double
        case .string(let string): return string
        }
    }

    /// `bool(forKey:)`: a `Bool`; a number other than 0; the strings "YES", "true" and "1"
    /// (any case); false otherwise.
    open func bool(forKey defaultName: String) -> Bool {
        switch saved(forKey: defaultName) {
        case .bool(let bool): bool
        case .int(let int): int != 0
        case .double(let double): double != 0
        case .string(let string): ["yes", "true", "1"].contains(string.lowercased())
        case nil: false
        }
    }

    /// `integer(forKey:)`: an `Int`; a `Double` truncated; a `Bool` as 1 or 0; a string that
    /// reads as a number; 0 otherwise.
    open func integer(forKey defaultName: String) -> Int {
        switch saved(forKey: defaultName) {
        case .bool(let bool): bool ? 1 : 0
        case .int(let int): int
        case .double(let double): double.isFinite ? Int(double) : 0
        case .string(let string):
            Int(string) ?? Double(string).map { $0.isFinite ? Int($0) : 0 } ?? 0
        case nil: 0
        }
    }

    /// `double(forKey:)`: a `Double`; an `Int`; a `Bool` as 1 or 0; a string that reads as a
    /// number; 0 otherwise.
    open func double(forKey defaultName: String) -> Double {
        switch saved(forKey: defaultName) {
        case .bool(let bool): bool ? 1 : 0
        case .int(let int): Double(int)
        case .double(let double): double
        case .string(let string): Double(string) ?? 0
        case nil: 0
        }
    }

    /// `float(forKey:)`: `double(forKey:)` as a `Float`.
    open func float(forKey defaultName: String) -> Float {
        Float(double(forKey: defaultName))
    }

    /// `string(forKey:)`: a `String`; a number written out; nil otherwise (a `Bool` too).
    open func string(forKey defaultName: String) -> String? {
        switch saved(forKey: defaultName) {
        case .string(let string): string
        case .int(let int): String(int)
        case .double(let double): "\(double)"
        case .bool, nil: nil
        }
    }

    // MARK: - Writing

    /// `set(_:forKey:)`: stores a `Bool`, `Int`, `Double`, `Float` or `String`; nil removes
    /// the key. Any other type stops the process (see the type's comment).
    open func set(_ value: Any?, forKey defaultName: String) {
        guard let value else { return removeObject(forKey: defaultName) }
        record?.set(Self.saved(value, forKey: defaultName), forKey: keyPrefix + defaultName)
    }

    /// `set(_:forKey:)` for a `Bool`.
    open func set(_ value: Bool, forKey defaultName: String) {
        record?.set(.bool(value), forKey: keyPrefix + defaultName)
    }

    /// `set(_:forKey:)` for an `Int`.
    open func set(_ value: Int, forKey defaultName: String) {
        record?.set(.int(value), forKey: keyPrefix + defaultName)
    }

    /// `set(_:forKey:)` for a `Double`.
    open func set(_ value: Double, forKey defaultName: String) {
        record?.set(.double(value), forKey: keyPrefix + defaultName)
    }

    /// `set(_:forKey:)` for a `Float`, stored as a `Double`.
    open func set(_ value: Float, forKey defaultName: String) {
        record?.set(.double(Double(value)), forKey: keyPrefix + defaultName)
    }

    /// `removeObject(forKey:)`: removes the key from this domain (a registered default for it
    /// reads again).
    open func removeObject(forKey defaultName: String) {
        record?.removeObject(forKey: keyPrefix + defaultName)
    }

    /// `synchronize()`: does nothing and returns true; the record reaches the disk on its own
    /// schedule (R-A1), as Apple says it does.
    @discardableResult
    open func synchronize() -> Bool { true }

    // MARK: - The record

    /// The domain's value for `key`, else the registered default.
    private func saved(forKey key: String) -> SavedValue? {
        record?.value(forKey: keyPrefix + key) ?? Self.registered.value.values[key]
    }

    /// `value` as the saved record holds it, or the process stops.
    private static func saved(_ value: Any, forKey key: String) -> SavedValue {
        switch value {
        case let bool as Bool: return .bool(bool)
        case let int as Int: return .int(int)
        case let double as Double: return .double(double)
        case let float as Float: return .double(Double(float))
        case let string as String: return .string(string)
        default:
            preconditionFailure(
                "UserDefaults: the value for \"\(key)\" is a \(type(of: value)); the simulated "
                    + "device's saved record holds Bool, Int, Double, Float and String values")
        }
    }
}

/// The registration domain of one simulated process (`UserDefaults.register(defaults:)`).
final class RegisteredDefaults: @unchecked Sendable {
    var values: [String: SavedValue] = [:]
}
