// The examples' storage seams on the simulated device: what an iOS team backs with Core Data
// or its own files, written over the world's store and `UserDefaults`.
import DebouncedRecorderExample
import DelegateTrackerExample
import Engines
import LifelineKit
import MotionTrackerExample
import World

import class LifelineKit.UserDefaults

/// Commits `locations` to the simulated device's store as fix rows (`FixRecorder`'s key), in
/// the calling callback: how the example stores stand for an app's database. False when the
/// store cannot be opened (no process, or its data unreadable before the first unlock).
@discardableResult
package func commitFixRows(of locations: [CLLocation], services: LocationServices?) -> Bool {
    guard let services, let store = try? services.openStore() else { return false }
    for location in locations {
        guard let fix = location.lifelineFix else { continue }
        store.insert(StoredRow(key: FixRecorder.fixRowKey, fix: fix))
    }
    store.commit()
    return true
}

/// The trackers' `LocationStore` on the simulated device: locations in the store (one row per
/// fix, `FixRecorder`'s key, committed in the callback that inserts), the switch in the saved
/// record through `UserDefaults`, as an iOS team writes it. What an iOS team would back with
/// Core Data. The delegate tracker's, the recorder's (`RecordStore`) and the motion tracker's
/// (`TrackStore`).
package final class DeviceLocationStore: LocationStore, RecordStore, TrackStore {
    private weak var services: LocationServices?
    package init(services: LocationServices) { self.services = services }

    package func append(_ locations: [CLLocation]) -> Bool {
        commitFixRows(of: locations, services: services)
    }

    package var trackingSwitchedOff: Bool {
        get { UserDefaults.standard.bool(forKey: "tracker.switchedOff") }
        set { UserDefaults.standard.set(newValue, forKey: "tracker.switchedOff") }
    }

    package var recordingSwitchedOff: Bool {
        get { trackingSwitchedOff }
        set { trackingSwitchedOff = newValue }
    }
}

/// A value handed into a task as it is (everything an example engine runs is on one simulated
/// process's thread).
package struct Handed<Value>: @unchecked Sendable {
    package let value: Value
    package init(value: Value) { self.value = value }
}

extension AppProfile {
    /// The profile of an example that keeps its locations on the phone: an Apple-shaped
    /// app's (`CustomEngine.application`'s default: the location background mode, no scenes)
    /// with `uploads` `.nothing`, so `uploaded-once` does not judge it from the tool and from
    /// `fuzzLifecycle` alike, and `reader` for its rows.
    static func phoneOnly(reader: FixReader = .fixRecorder) -> AppProfile {
        var profile = AppProfile(
            capabilities: AppCapabilities(locationBackgroundMode: true, sceneBased: false),
            reader: reader)
        profile.uploads = .nothing
        return profile
    }
}
