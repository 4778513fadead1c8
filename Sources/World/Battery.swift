// The device's battery (layer 3): a level that drains, faster while the location daemon runs
// GNSS for the app, and charges while the user has the charger plugged in.
import Simulation

/// The numbers of the battery model (R-B1, R-B2).
package struct BatteryModel: Sendable, Equatable {
    /// The level at the start of a run, in percent (an assumption: a phone part-charged).
    package var startLevelPercent = 82.0
    /// The drain with the screen off and no location in use, percent per hour (R-B1, an
    /// assumption: an idle iPhone lasts days on standby; about 1 % an hour).
    package var idleDrainPercentPerHour = 1.0
    /// The extra drain while the location daemon runs GNSS for the app, percent per hour (R-B1,
    /// an assumption: background trackers' users report about 5–15 % an hour with continuous
    /// GPS; the middle of that range).
    package var locationDrainPercentPerHour = 9.0
    /// The charge rate with the charger plugged in, percent per hour (R-B2: Apple's fast-charge
    /// figure, "up to 50 % in about 30 minutes" with a 20 W adapter, taken as linear).
    package var chargePercentPerHour = 100.0

    package init() {}

    /// The model every world uses.
    package static let standard = BatteryModel()
}

/// What `UIDevice.batteryState` reports, the device's side (R-B2).
package enum BatteryCharge: Int, Sendable, Equatable {
    case unplugged = 1
    case charging, full
}

/// The device's battery over a run (R-B1, R-B2).
///
/// Written by the operating system (the user's `charger` action) and the location daemon (when
/// it starts and stops running GNSS for the app); read by the app's processes. The level is a
/// pure function of those changes and the instant, so it is the same in every process and
/// order of reading: between two changes it moves linearly at the rate the changes set, within
/// 0–100 %.
package final class Battery: @unchecked Sendable {
    package let model: BatteryModel
    // invariant: `levelPercent` is the level at `changedAt`, within 0...100
    private var levelPercent: Double
    private var changedAt = Instant.start
    private var plugged = false
    private var gnssInUse = false

    package init(model: BatteryModel = .standard) {
        precondition((0...100).contains(model.startLevelPercent), "a level is 0–100 %")
        self.model = model
        levelPercent = model.startLevelPercent
    }

    /// The level at `instant`, 0–100 %.
    package func levelPercent(at instant: Instant) -> Double {
        let hours = Double((instant - changedAt).nanoseconds) / 3_600_000_000_000
        let level = levelPercent + ratePercentPerHour * max(hours, 0)
        return min(max(level, 0), 100)
    }

    /// The charger's state at `instant` as `UIDevice` reports it.
    package func charge(at instant: Instant) -> BatteryCharge {
        guard plugged else { return .unplugged }
        return levelPercent(at: instant) >= 100 ? .full : .charging
    }

    /// The user plugs the charger in or pulls it out (`UserAction.setCharger`).
    package func setCharger(_ on: Bool, at instant: Instant) {
        guard on != plugged else { return }
        settle(at: instant)
        plugged = on
    }

    /// The location daemon starts or stops running GNSS for the app.
    package func setLocationInUse(_ on: Bool, at instant: Instant) {
        guard on != gnssInUse else { return }
        settle(at: instant)
        gnssInUse = on
    }

    // MARK: - Rates

    private var ratePercentPerHour: Double {
        if plugged { return model.chargePercentPerHour }
        return
            -(model.idleDrainPercentPerHour + (gnssInUse ? model.locationDrainPercentPerHour : 0))
    }

    /// Folds the time since the last change into the level.
    private func settle(at instant: Instant) {
        precondition(instant >= changedAt, "time never goes back")
        levelPercent = levelPercent(at: instant)
        changedAt = instant
    }
}
