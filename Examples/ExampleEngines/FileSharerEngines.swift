// Examples/FileSharer as engines: the sharer as written (its files), its twin over the
// project's store, and its planted mistake (a `complete` file read while the device is locked).
import Engines
import FileSharerExample
import Foundation
import Fuzzing
import Invariants
import LifelineKit
import Simulation
import World

import class LifelineKit.UserDefaults

/// The sharer's store written with the project's store: one row per location holding the
/// same JSON the file store writes, the settings in `UserDefaults` as the file store keeps
/// them. The twin the file-keeping example is compared with.
package final class RowSharerStore: SharerStore {
    package static let rowKey = "sharer.location"
    private weak var services: LocationServices?
    private let files = FileSharerStore()
    package init(services: LocationServices) { self.services = services }

    package func save(_ locations: [SharedLocation]) -> Bool {
        guard let services, let store = try? services.openStore() else { return false }
        let encoder = JSONEncoder()
        for location in locations {
            guard let data = try? encoder.encode(location) else { return false }
            store.insert(StoredRow(key: Self.rowKey, text: String(decoding: data, as: UTF8.self)))
        }
        store.commit()
        return true
    }

    package var settings: SharingSettings {
        get { files.settings }
        set { files.settings = newValue }
    }
}

/// The file sharer's engines, its reader and the settings its fuzzing uses.
package enum FileSharer {
    /// The device path of the sharer's history files.
    package static let historyPath =
        DeviceFiles.containerPath + "/Library/Application Support/Sharer/History/"

    /// Reads a location out of a history file's row (or the twin's row): the fix the JSON
    /// describes (the fix's source is not kept; no invariant tells fixes apart by it).
    package static let reader = FixReader { row in
        let isHistoryFile =
            row.key.hasPrefix(DeviceFiles.rowKey(ofPath: historyPath))
            && row.key.hasSuffix(".json")
        guard isHistoryFile || row.key == RowSharerStore.rowKey else { return nil }
        let location = try JSONDecoder().decode(SharedLocation.self, from: Data(row.text.utf8))
        return Fix(
            instant: VirtualClock.instant(location.timestamp),
            coordinate: Coordinate(latitude: location.latitude, longitude: location.longitude),
            horizontalAccuracyMeters: location.horizontalAccuracy, source: .gnss,
            speedMetersPerSecond: location.speed)
    }

    /// The sharer keeps its locations on the phone: its profile says so (no server), so
    /// `uploaded-once` does not judge it.
    static func engine(
        name: String, summary: String, store: @escaping @Sendable (LocationServices) -> SharerStore
    ) -> CustomEngine {
        CustomEngine.application(
            name: name, summary: summary, profile: .phoneOnly(reader: reader)
        ) { services in
            SharerAppDelegate(store: store(services))
        } setTracking: { app, on in
            app.sharer.setSharing(on)
        }
    }

    /// The example as written: files under Application Support, iOS's default protection.
    package static let example = engine(
        name: "file-sharer", summary: "Examples/FileSharer: history and last location in files"
    ) { _ in FileSharerStore() }

    /// Its twin over the project's store.
    package static let twin = engine(
        name: "row-sharer", summary: "Examples/FileSharer's sharer over the project's store"
    ) { RowSharerStore(services: $0) }

    /// The planted mistake: the sharer's folder is `complete`, and each save reads the last
    /// location first, which iOS refuses while the device is locked (R-S5): the locations
    /// wait in memory and die with the process.
    package static let completeWhileLocked = engine(
        name: "file-sharer-complete",
        summary: "the file sharer with its folder complete, reading its last location first"
    ) { _ in FileSharerStore(protection: .complete, readsLastBeforeSaving: true) }

    /// Every built-in invariant but `uploaded-once`: the sharer keeps its locations on the
    /// device (its profile's uploads are `.nothing`).
    package static let invariants = InvariantSelection().applied(
        to: Invariant.builtIn, profile: example.profile)

    /// Scenarios of `engine` with drives of at most two 10-minute segments: a fix costs a few
    /// file calls, and a debug build's budget stays in seconds.
    package static func generator(_ engine: CustomEngine) -> ScenarioGenerator {
        var generator = ScenarioGenerator(engine: .custom(engine))
        generator.segmentCountMax = 2
        generator.segmentMinutesMax = 10
        return generator
    }
}
