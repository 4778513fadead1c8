// Where a location sharer keeps what must survive its process, written as an iOS team writes
// it: each location a `Codable` JSON file under Application Support, written atomically, the
// last one again in a file of its own, and the user's settings as `Data` in `UserDefaults`.
// This file builds for iOS with Foundation, CoreLocation and UIKit, and here with LifelineKit:
// only the imports differ (the scoped imports name LifelineKit's `FileManager` and
// `UserDefaults` over Foundation's).
import Foundation

#if canImport(CoreLocation) && canImport(UIKit)
    import CoreLocation
    import UIKit
#else
    import LifelineKit
    import class LifelineKit.FileManager
    import class LifelineKit.UserDefaults
#endif

/// One location as the sharer keeps it and shows it to the people it shares with.
public struct SharedLocation: Codable, Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double
    public var horizontalAccuracy: Double
    public var speed: Double
    public var timestamp: Date

    public init(_ location: CLLocation) {
        latitude = location.coordinate.latitude
        longitude = location.coordinate.longitude
        horizontalAccuracy = location.horizontalAccuracy
        speed = location.speed
        timestamp = location.timestamp
    }
}

/// The user's settings, kept as one `Data` value in `UserDefaults`.
public struct SharingSettings: Codable, Equatable, Sendable {
    /// The user shares their location (on until they turn it off).
    public var isSharing = true
    /// Who sees it.
    public var recipients: [String] = []

    public init(isSharing: Bool = true, recipients: [String] = []) {
        self.isSharing = isSharing
        self.recipients = recipients
    }
}

/// Where the sharer keeps what must survive its process.
public protocol SharerStore: AnyObject {
    /// Saves `locations` durably; false when they cannot be saved now (the files are
    /// protected), so the caller keeps them and tries again.
    func save(_ locations: [SharedLocation]) -> Bool
    /// The user's settings.
    var settings: SharingSettings { get set }
}

/// The sharer's store on the device: Application Support/Sharer/History/ holds one JSON file
/// per location (named by its timestamp in milliseconds), LastLocation.json the latest one,
/// both written with `.atomic`; the settings are JSON `Data` in `UserDefaults.standard`.
public final class FileSharerStore: SharerStore {
    public static let settingsKey = "sharer.settings"

    /// The folder's data protection class; nil for iOS's default
    /// (`completeUntilFirstUserAuthentication`).
    private let protection: FileProtectionType?
    /// Read the last location before each save, to drop locations older than it (the planted
    /// mistake of the tests: an unreadable last location drops every location).
    private let readsLastBeforeSaving: Bool

    public init(protection: FileProtectionType? = nil, readsLastBeforeSaving: Bool = false) {
        self.protection = protection
        self.readsLastBeforeSaving = readsLastBeforeSaving
    }

    /// Application Support/Sharer.
    public var folder: URL {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("Sharer", isDirectory: true)
    }
    public var historyFolder: URL { folder.appendingPathComponent("History", isDirectory: true) }
    public var lastLocationURL: URL { folder.appendingPathComponent("LastLocation.json") }

    public func save(_ locations: [SharedLocation]) -> Bool {
        do {
            var locations = locations
            let manager = FileManager.default
            let attributes = protection.map { [FileAttributeKey.protectionKey: $0] }
            try manager.createDirectory(
                at: historyFolder, withIntermediateDirectories: true, attributes: attributes)
            if let protection {
                try manager.setAttributes([.protectionKey: protection], ofItemAtPath: folder.path)
            }
            if readsLastBeforeSaving, manager.fileExists(atPath: lastLocationURL.path) {
                // Drops what is not newer than the last location saved. A last location that
                // cannot be read counts as newer than everything.
                let last = try? JSONDecoder().decode(
                    SharedLocation.self, from: Data(contentsOf: lastLocationURL))
                locations.removeAll { location in
                    last.map { location.timestamp <= $0.timestamp } ?? true
                }
            }
            guard let newest = locations.last else { return true }
            let encoder = JSONEncoder()
            for location in locations {
                let milliseconds = Int64(
                    (location.timestamp.timeIntervalSince1970 * 1000).rounded())
                try encoder.encode(location).write(
                    to: historyFolder.appendingPathComponent("\(milliseconds).json"),
                    options: .atomic)
            }
            try encoder.encode(newest).write(to: lastLocationURL, options: .atomic)
            return true
        } catch {
            return false
        }
    }

    /// The last location saved, nil when there is none or it cannot be read now.
    public var lastLocation: SharedLocation? {
        guard let data = try? Data(contentsOf: lastLocationURL) else { return nil }
        return try? JSONDecoder().decode(SharedLocation.self, from: data)
    }

    /// The locations saved, oldest first.
    public var history: [SharedLocation] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: historyFolder.path)) ?? []
        return names.compactMap { name in
            guard let data = try? Data(contentsOf: historyFolder.appendingPathComponent(name))
            else { return nil }
            return try? JSONDecoder().decode(SharedLocation.self, from: data)
        }.sorted { $0.timestamp < $1.timestamp }
    }

    public var settings: SharingSettings {
        get {
            guard let data = UserDefaults.standard.data(forKey: Self.settingsKey),
                let settings = try? JSONDecoder().decode(SharingSettings.self, from: data)
            else { return SharingSettings() }
            return settings
        }
        set {
            UserDefaults.standard.set(
                try? JSONEncoder().encode(newValue), forKey: Self.settingsKey)
        }
    }
}
