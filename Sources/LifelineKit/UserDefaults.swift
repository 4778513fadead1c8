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
/// Values are the property-list types, as Foundation's: `Bool`, `Int` (and the other integer
/// types, stored as one), `Double` (a `Float` is stored as one), `String`, `Data` (a `Codable`
/// encoded, as most apps keep their settings), `Date`, arrays and `String`-keyed dictionaries
/// of them, nested; and a `URL` through `set(_:forKey:)`/`url(forKey:)`. Foundation's getters
/// convert between the scalars as Foundation does for the common cases (`bool(forKey:)` of the
/// string "YES" or the number 1 is true). Setting any other value stops the process, as
/// Foundation's "Attempt to insert non-property list object" does.
///
/// Every change (`set`, `removeObject`) posts `UserDefaults.didChangeNotification`, with this
/// object as its sender, to the process's `NotificationCenter`, at once.
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

    /// `object(forKey:)`: the value as Foundation's type (`Bool`, `Int`, `Double`, `String`,
    /// `Data`, `Date`, `URL`, `[Any]`, `[String: Any]`); the registered default when the domain
    /// holds none; nil when neither does.
    open func object(forKey defaultName: String) -> Any? {
        saved(forKey: defaultName).map(Self.foundationValue)
    }

    /// `data(forKey:)`: a `Data` value, nil otherwise.
    open func data(forKey defaultName: String) -> Data? {
        if case .data(let bytes) = saved(forKey: defaultName) { Data(bytes) } else { nil }
    }

    /// `array(forKey:)`: an array value, nil otherwise.
    open func array(forKey defaultName: String) -> [Any]? {
        object(forKey: defaultName) as? [Any]
    }

    /// `stringArray(forKey:)`: an array whose elements are all strings, nil otherwise.
    open func stringArray(forKey defaultName: String) -> [String]? {
        object(forKey: defaultName) as? [String]
    }

    /// `dictionary(forKey:)`: a dictionary value, nil otherwise.
    open func dictionary(forKey defaultName: String) -> [String: Any]? {
        object(forKey: defaultName) as? [String: Any]
    }

    /// `url(forKey:)`: a URL set with `set(_:forKey:)`; a string that is an absolute path as
    /// a file URL (with `~` expanded), any other string as a URL; nil otherwise.
    open func url(forKey defaultName: String) -> URL? {
        switch saved(forKey: defaultName) {
        case .url(let text): return URL(string: text)
        case .string(let text):
            let path = NSString(string: text).expandingTildeInPath
            return path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(string: text)
        default: return nil
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
        default: false
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
        default: 0
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
        default: 0
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
        default: nil
        }
    }

    // MARK: - Writing

    /// `set(_:forKey:)`: stores a property-list value (see the type's comment); nil removes
    /// the key. Any other value stops the process, as Foundation's exception does.
    open func set(_ value: Any?, forKey defaultName: String) {
        guard let value else { return removeObject(forKey: defaultName) }
        store(Self.saved(value, forKey: defaultName), forKey: defaultName)
    }

    /// `set(_:forKey:)` for a `Bool`.
    open func set(_ value: Bool, forKey defaultName: String) {
        store(.bool(value), forKey: defaultName)
    }

    /// `set(_:forKey:)` for an `Int`.
    open func set(_ value: Int, forKey defaultName: String) {
        store(.int(value), forKey: defaultName)
    }

    /// `set(_:forKey:)` for a `Double`.
    open func set(_ value: Double, forKey defaultName: String) {
        store(.double(value), forKey: defaultName)
    }

    /// `set(_:forKey:)` for a `Float`, stored as a `Double`.
    open func set(_ value: Float, forKey defaultName: String) {
        store(.double(Double(value)), forKey: defaultName)
    }

    /// `set(_:forKey:)` for a `URL`: read back by `url(forKey:)`; nil removes the key.
    open func set(_ url: URL?, forKey defaultName: String) {
        guard let url else { return removeObject(forKey: defaultName) }
        store(.url(url.absoluteString), forKey: defaultName)
    }

    /// `removeObject(forKey:)`: removes the key from this domain (a registered default for it
    /// reads again).
    open func removeObject(forKey defaultName: String) {
        store(nil, forKey: defaultName)
    }

    /// `UserDefaults.didChangeNotification`, posted after every change.
    public static let didChangeNotification = Foundation.UserDefaults.didChangeNotification

    /// Writes `value` (nil: removes) to the record, and posts `didChangeNotification`.
    private func store(_ value: SavedValue?, forKey key: String) {
        guard let record else { return }
        record.set(value, forKey: keyPrefix + key)
        NotificationCenter.default.post(name: Self.didChangeNotification, object: self)
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
        guard let saved = propertyListValue(value) else {
            preconditionFailure(
                "UserDefaults: Attempt to insert non-property list object \(value) of type "
                    + "\(type(of: value)) for key \(key): a value is Bool, a number, String, "
                    + "Data, Date, or an array or String-keyed dictionary of them")
        }
        return saved
    }

    /// `value` as a property-list value, nil when it is not one.
    private static func propertyListValue(_ value: Any) -> SavedValue? {
        switch value {
        case let bool as Bool: return .bool(bool)
        case let int as Int: return .int(int)
        case let double as Double: return .double(double)
        case let float as Float: return .double(Double(float))
        case let integer as any BinaryInteger: return Int(exactly: integer).map(SavedValue.int)
        case let string as String: return .string(string)
        case let data as Data: return .data([UInt8](data))
        case let date as Date: return .date(date.timeIntervalSinceReferenceDate)
        case let dictionary as [String: Any]:
            var values: [String: SavedValue] = [:]
            for (key, element) in dictionary {
                guard let saved = propertyListValue(element) else { return nil }
                values[key] = saved
            }
            return .dictionary(values)
        case let array as [Any]:
            var values: [SavedValue] = []
            for element in array {
                guard let saved = propertyListValue(element) else { return nil }
                values.append(saved)
            }
            return .array(values)
        default: return nil
        }
    }

    /// A saved value as Foundation's type.
    private static func foundationValue(_ value: SavedValue) -> Any {
        switch value {
        case .bool(let bool): bool
        case .int(let int): int
        case .double(let double): double
        case .string(let string): string
        case .data(let bytes): Data(bytes)
        case .date(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
        case .url(let text): URL(string: text) as Any
        case .array(let values): values.map(foundationValue)
        case .dictionary(let values): values.mapValues(foundationValue)
        }
    }
}

/// The registration domain of one simulated process (`UserDefaults.register(defaults:)`).
final class RegisteredDefaults: @unchecked Sendable {
    var values: [String: SavedValue] = [:]
}
