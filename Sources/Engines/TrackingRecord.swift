// The saved record a tracking engine keeps (layer 4): the enabled flag and the boot it was
// last launched in, and the launch-time decisions of R-B11 and R-B12 that read them.
import Simulation
import World

/// What every built-in engine decides at launch about whether tracking goes on, before any
/// resume path runs: `stopOnTerminate` (R-B11) and `startOnBoot` (R-B12).
public struct LaunchRules: Sendable, Equatable {
    /// `stopOnTerminate` (R-B11, default false): a launch (any launch means the last process
    /// ended) clears the enabled flag before anything resumes; the host app must start again.
    public var stopOnTerminate = false
    /// `startOnBoot` (R-B12, default false): false clears the enabled flag at the first launch
    /// after a reboot; true resumes, best effort (the relaunch is iOS's, R-B7).
    public var startOnBoot = false
    /// How far the boot time may move between launches and still be the same boot (R-B12:
    /// 60 s, for wall-clock adjustments; never the uptime, which pauses while the device
    /// sleeps).
    public var bootTimeDriftTolerance = VirtualDuration.seconds(60)

    public init(
        stopOnTerminate: Bool = false, startOnBoot: Bool = false,
        bootTimeDriftTolerance: VirtualDuration = .seconds(60)
    ) {
        self.stopOnTerminate = stopOnTerminate
        self.startOnBoot = startOnBoot
        self.bootTimeDriftTolerance = bootTimeDriftTolerance
    }
}

/// The engine's flags in the saved record (`services.userDefaults`), read and written through
/// one place so every engine keeps them under the same keys.
public struct TrackingRecord {
    /// Key of the enabled flag.
    public static let enabledKey = "tracking.enabled"
    /// Key of the boot time (nanoseconds from the scenario's start) of the last launch.
    public static let bootTimeKey = "tracking.bootTime"

    let defaults: SavedRecord

    public init(_ services: LocationServices) { defaults = services.userDefaults }

    /// The persisted enabled flag.
    public var isEnabled: Bool {
        get { defaults.bool(forKey: Self.enabledKey) }
        nonmutating set { defaults.set(newValue, forKey: Self.enabledKey) }
    }

    /// Key of the host app's record of the user's switch (`tracking on`, `tracking off`).
    public static let userWantsTrackingKey = "host.trackingWanted"

    /// What the user last set with the host app's switch, nil if never: the host app's own
    /// flag, apart from the engine's enabled flag, which the launch rules may clear (R-B11,
    /// R-B12) while the user still wants tracking.
    public var userWantsTracking: Bool? {
        get {
            if case .bool(let wants) = defaults.value(forKey: Self.userWantsTrackingKey) {
                wants
            } else {
                nil
            }
        }
        nonmutating set {
            defaults.set(newValue.map(SavedValue.bool), forKey: Self.userWantsTrackingKey)
        }
    }

    /// Whether the host app calls `start()` when the user opens the app and tracking is off:
    /// when the user last turned tracking on, or never used the switch and the app tracks
    /// from its first launch (`TrackingStart.atFirstLaunch`).
    public func hostStartsWhenOpened(_ trackingStart: TrackingStart) -> Bool {
        userWantsTracking ?? (trackingStart == .atFirstLaunch)
    }

    /// Applies `rules` at launch, before any resume, and remembers this boot. Returns whether
    /// tracking is still enabled, and the events the host app is told (a detected reboot, a
    /// cleared flag). Call it only when protected data is readable (R-D9): before the first
    /// unlock the record reads empty and the decision would be wrong.
    public func applyAtLaunch(_ rules: LaunchRules, services: LocationServices)
        -> (enabled: Bool, events: [TrackingEvent])
    {
        applyAtLaunch(rules, services: services, bootFromUptime: false)
    }

    /// The same; `bootFromUptime` takes the boot as `now - uptime`, which moves whenever the
    /// device sleeps: wrong (R-B12), and only `SessionEngine.Seams.bootTimeFromUptime` asks.
    func applyAtLaunch(_ rules: LaunchRules, services: LocationServices, bootFromUptime: Bool)
        -> (enabled: Bool, events: [TrackingEvent])
    {
        let bootNow =
            bootFromUptime
            ? (services.now - .start) - services.uptime : services.bootTime.sinceStart
        var savedBoot: VirtualDuration?
        if case .int(let saved) = defaults.value(forKey: Self.bootTimeKey) {
            savedBoot = VirtualDuration(nanoseconds: Int64(saved))
        }
        let decision = rules.decideAtLaunch(
            enabled: isEnabled, savedBootTime: savedBoot, bootTime: bootNow)
        defaults.set(Int(bootNow.nanoseconds), forKey: Self.bootTimeKey)
        if decision.enabled != isEnabled { isEnabled = decision.enabled }
        return decision
    }
}

extension LaunchRules {
    /// The launch decision of R-B11 and R-B12, wherever the record is kept (the saved record
    /// here, `UserDefaults` in an engine on LifelineKit): a boot time more than
    /// `bootTimeDriftTolerance` from the one saved at the last launch is a reboot, which turns
    /// tracking off unless `startOnBoot`; `stopOnTerminate` turns it off at every launch.
    /// Returns whether tracking stays enabled and the events the host app is told.
    package func decideAtLaunch(
        enabled wasEnabled: Bool, savedBootTime: VirtualDuration?, bootTime: VirtualDuration
    ) -> (enabled: Bool, events: [TrackingEvent]) {
        var events: [TrackingEvent] = []
        var enabled = wasEnabled
        if let savedBootTime {
            let drift = bootTime - savedBootTime
            let magnitude = drift < .zero ? .zero - drift : drift
            if magnitude > bootTimeDriftTolerance {
                events.append(.rebootDetected)
                if enabled && !startOnBoot {
                    enabled = false
                    events.append(.disabledAtLaunch(reason: "reboot with startOnBoot false, R-B12"))
                }
            }
        }
        if enabled && stopOnTerminate {
            enabled = false
            events.append(.disabledAtLaunch(reason: "stopOnTerminate, R-B11"))
        }
        return (enabled, events)
    }
}
