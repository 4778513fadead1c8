// The words of the world model (layer 3): process states, authorization, capabilities, fixes,
// events, and what a launch tells the app.
import Simulation

/// The app process's states (R-A1). Transitions: launch → foreground; leaving → background;
/// background → suspended unless kept running; background or suspended → foreground when the
/// user returns; suspended → terminated for memory; foreground → terminated by a crash or a
/// swipe; terminated → background when relaunched for a location event.
public enum ProcessState: String, Sendable, CaseIterable {
    case notRunning = "not-running"
    case foreground
    case background
    case suspended
    case terminated

    /// True when the process exists and runs code.
    public var isRunning: Bool { self == .foreground || self == .background }
    /// True when the process exists: running or suspended.
    public var exists: Bool { isRunning || self == .suspended }
}

/// Location authorization (R-A3, R-F5).
public enum Authorization: String, Sendable, CaseIterable {
    case notDetermined = "not-determined"
    case whenInUse = "when-in-use"
    case always
    case denied
}

/// How the user answers the app's location prompts, set by the scenario (ios-facts: Always
/// request rules). The When-in-Use prompt comes from `requestWhenInUseAuthorization`, or from
/// `requestAlwaysAuthorization` while the authorization is not determined (iOS then gives When
/// in Use with a provisional Always, whose later second prompt is not modelled). The Always
/// prompt comes from the first `requestAlwaysAuthorization` made with When in Use. A prompt is
/// shown only to an app in the foreground; Always can be requested only once; every other
/// request is ignored. "Allow Once" is not modelled.
public struct AuthorizationAnswers: Sendable, Equatable {
    /// The answer to the When-in-Use prompt: `.whenInUse` or `.denied`.
    public var whenInUse: Authorization
    /// The answer to the Always prompt: `.always`, or `.whenInUse` to keep When in Use.
    public var always: Authorization
    /// Time from the request to the user's answer.
    package var responseDelay: VirtualDuration
    /// The answer to the temporary full accuracy prompt: true grants full accuracy until the
    /// process ends.
    public var temporaryFullAccuracy: Bool

    public init(
        whenInUse: Authorization = .whenInUse, always: Authorization = .always,
        responseDelay: VirtualDuration = .seconds(2), temporaryFullAccuracy: Bool = true
    ) {
        self.whenInUse = whenInUse
        self.always = always
        self.responseDelay = responseDelay
        self.temporaryFullAccuracy = temporaryFullAccuracy
    }
}

/// Precise or reduced location (R-F10, R-D11).
public enum AccuracyAuthorization: String, Sendable { case full, reduced }

/// What the app's Info.plist declares.
public struct AppCapabilities: Sendable, Equatable {
    /// `UIBackgroundModes` contains `location` (R-A3, R-A9).
    public var locationBackgroundMode: Bool
    /// The app uses the scene-based life cycle (R-A11: no launch options then).
    package var sceneBased: Bool
    /// `UIBackgroundModes` as the app declares them, when its profile says (an Info.plist,
    /// `AppProfile.capabilities(backgroundModes:)`): without `fetch` the system refuses app
    /// refresh requests, without `processing` processing requests, and without
    /// `remote-notification` a silent push does not reach an app that is not in the foreground
    /// (R-H11). Nil: the profile does not say, and the model checks none of these (as before
    /// the rule).
    package var backgroundModes: [String]?
    /// `BGTaskSchedulerPermittedIdentifiers`, when the profile says: the system refuses a task
    /// request, and a launch handler, whose identifier is not listed (R-H11). Nil: every
    /// identifier is permitted.
    package var permittedTaskIdentifiers: [String]?

    public init(
        locationBackgroundMode: Bool = true, sceneBased: Bool = true,
        backgroundModes: [String]? = nil, permittedTaskIdentifiers: [String]? = nil
    ) {
        self.locationBackgroundMode = locationBackgroundMode
        self.sceneBased = sceneBased
        self.backgroundModes = backgroundModes
        self.permittedTaskIdentifiers = permittedTaskIdentifiers
    }

    /// Whether the Info.plist lets the app schedule a task with `identifier` that needs the
    /// background mode `mode` (`fetch` for app refresh, `processing`) (R-H11).
    package func permitsTask(_ identifier: String, mode: String) -> Bool {
        (backgroundModes?.contains(mode) ?? true)
            && (permittedTaskIdentifiers?.contains(identifier) ?? true)
    }

    /// Whether a silent push reaches the app when it is not in the foreground (R-H11).
    var receivesBackgroundNotifications: Bool {
        backgroundModes?.contains("remote-notification") ?? true
    }
}

/// `CLLocationUpdate.LiveConfiguration` (R-C3: the old activity types).
public enum LiveConfiguration: String, Sendable, CaseIterable {
    case `default`, automotiveNavigation, otherNavigation, fitness, airborne
}

/// `CLActivityType` (F: other 1, automotiveNavigation 2, fitness 3, otherNavigation 4,
/// airborne 5). Recorded; it does not change delivery yet.
public enum ActivityType: String, Sendable, CaseIterable {
    case other, automotiveNavigation, fitness, otherNavigation, airborne
}

/// How the process last ended.
public enum TerminationCause: String, Sendable {
    /// Ended by the system for memory while suspended (R-F3).
    case memory
    /// Swiped away by the user (R-B4, R-B5, R-B6, R-D6).
    case forceQuit = "force-quit"
    /// Crashed, including the Info.plist assertion (R-A9).
    case crash
    /// Exited on its own (as a test host does when its test ends).
    case exit
    /// The device rebooted.
    case reboot
    /// An idle background launch ended (see `IOSPolicy.endsIdleBackgroundLaunch`).
    case idle
    /// Killed by the system's watchdog for a background task still held after its expiry
    /// handler ran (R-F1): the app's own misbehaviour, never a scenario event.
    case watchdog
}

/// What relaunches a terminated app (R-A10, R-B3–B7).
public enum RelaunchMechanism: String, Sendable, CaseIterable {
    case significantChange = "significant-change"
    case region
    case visit
    /// Live updates held with a session (R-B3, R-B4).
    case session
    /// The registrations that survive a reboot (R-B7).
    case boot
}

/// Where a fix came from, which sets its accuracy (R-F10).
public enum FixSource: String, Sendable { case gnss, wifi, cell }

/// One location sample.
///
/// Two fixes are equal when their instant, coordinate, accuracy, source and speed are.
public struct Fix: Sendable, Equatable, CustomStringConvertible {
    public var instant: Instant
    public var coordinate: Coordinate
    public var horizontalAccuracyMeters: Double
    public var source: FixSource
    /// Where the run's `FixArchive` holds this fix, when it does (`FixArchive.none` otherwise):
    /// a hint that lets the store and the server keep the fix by its slot, checked against the
    /// archive before it is trusted. Held in the padding after `source`, so a fix is 48 bytes
    /// either way; not part of its value.
    package var archiveSlot: UInt32 = FixArchive.none
    public var speedMetersPerSecond: Double

    /// A fix read back from a form the package itself wrote (`CLLocation`'s archive): the
    /// world makes fixes, the app never does.
    package init(
        instant: Instant, coordinate: Coordinate, horizontalAccuracyMeters: Double,
        source: FixSource, speedMetersPerSecond: Double
    ) {
        self.instant = instant
        self.coordinate = coordinate
        self.horizontalAccuracyMeters = horizontalAccuracyMeters
        self.source = source
        self.speedMetersPerSecond = speedMetersPerSecond
    }

    public static func == (left: Fix, right: Fix) -> Bool {
        left.instant == right.instant && left.coordinate == right.coordinate
            && left.horizontalAccuracyMeters == right.horizontalAccuracyMeters
            && left.source == right.source
            && left.speedMetersPerSecond == right.speedMetersPerSecond
    }

    public var description: String {
        "fix \(coordinate) ±\(Int(horizontalAccuracyMeters.rounded()))m \(source.rawValue) at \(instant)"
    }
}

/// A per-process object the app created through `LocationServices`, as the simulator numbers
/// it (the trace and `World.log` name objects by it). Only this package makes or reads one: a
/// team's engine holds the object itself (`LocationManager`, the sessions, `Monitor`) or a
/// handle typed by what it names (`BackgroundTaskID`, `TimerID`, `LiveUpdatesID`).
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    package var value: Int
    package init(_ value: Int) { self.value = value }
    public var description: String { "#\(value)" }
}

/// A background task's identifier, as `UIBackgroundTaskIdentifier`: returned by
/// `LocationServices.beginBackgroundTask()`, passed to `endBackgroundTask(_:)` and to the
/// engine's `backgroundTaskWillExpire(_:services:)`.
public struct BackgroundTaskID: Hashable, Sendable, CustomStringConvertible {
    package let object: ObjectID
    package init(_ object: ObjectID) { self.object = object }
    public var description: String { object.description }
}

/// A one-shot timer's identifier: returned by `LocationServices.scheduledTimer(after:)`,
/// passed to `invalidateTimer(_:)` and to the engine's `timerDidFire(_:services:)`.
public struct TimerID: Hashable, Sendable, CustomStringConvertible {
    package let object: ObjectID
    package init(_ object: ObjectID) { self.object = object }
    public var description: String { object.description }
}

/// A live-updates stream's identifier (one iteration of `CLLocationUpdate.liveUpdates`):
/// returned by `LocationServices.startLiveUpdates(_:)`, passed to `stopLiveUpdates(_:)`, and
/// carried by the stream's updates (`LocationUpdate.liveUpdates`).
public struct LiveUpdatesID: Hashable, Sendable, CustomStringConvertible {
    package let object: ObjectID
    package init(_ object: ObjectID) { self.object = object }
    public var description: String { object.description }
}

/// The diagnostic flags of a live update (`CLLocationUpdate`, iOS 17 and 18, R-C1, F): each
/// is set while updates are paused, suspended or limited for that reason.
///
/// What the model sets: `stationary` with the update that pauses a still stream (R-C2);
/// `authorizationDenied` on one update without a location when a stream's locations are kept
/// from the app because the user denied access (R-A3); `insufficientlyInUse` likewise when a
/// When In Use app in the background, its grace over, has begun a session there that does
/// nothing (R-C5, F: "created in the background it gives insufficientlyInUse"); and
/// `accuracyLimited` on every update under reduced accuracy (R-F10; the model does not slow
/// reduced-accuracy updates to "a few times an hour", so the flag marks them instead of a
/// pause). Bare live updates of a When In Use app whose grace ends get no flag at all, as
/// measured (R-A5). `locationUnavailable` (no GNSS outage is modelled) and
/// `serviceSessionRequired` (`NSLocationRequireExplicitServiceSession` is not modelled) exist
/// for engines to handle, and the model never sets them.
public struct LocationDiagnostics: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The device is still: updates pause until it moves (R-C2).
    public static let stationary = LocationDiagnostics(rawValue: 1 << 0)
    /// No location can be determined now; updates go on (R-C1: a nil location).
    public static let locationUnavailable = LocationDiagnostics(rawValue: 1 << 1)
    /// The user denied the app location access (R-A3).
    public static let authorizationDenied = LocationDiagnostics(rawValue: 1 << 2)
    /// The app is not in use enough: When In Use in the background without a session that
    /// counts (R-C5).
    public static let insufficientlyInUse = LocationDiagnostics(rawValue: 1 << 3)
    /// The app must hold a service session (iOS 18, R-B9).
    public static let serviceSessionRequired = LocationDiagnostics(rawValue: 1 << 4)
    /// Reduced accuracy limits updates (R-F10).
    public static let accuracyLimited = LocationDiagnostics(rawValue: 1 << 5)

    /// Every flag with its trace text, in this order.
    static let named: [(flag: LocationDiagnostics, text: String)] = [
        (.stationary, "stationary"), (.locationUnavailable, "location-unavailable"),
        (.authorizationDenied, "authorization-denied"),
        (.insufficientlyInUse, "insufficiently-in-use"),
        (.serviceSessionRequired, "service-session-required"),
        (.accuracyLimited, "accuracy-limited"),
    ]

    /// The set flags' names, space-separated, in declaration order ("" when none).
    public var description: String {
        Self.named.filter { contains($0.flag) }.map(\.text).joined(separator: " ")
    }
}

/// A location delivered to the app: from a manager, or from a live-updates stream, with an
/// optional location (nil: none available now, not the end of updates) and the diagnostic
/// flags (R-C1, R-C2).
public struct LocationUpdate: Sendable, Equatable, CustomStringConvertible {
    public enum Channel: Sendable, Equatable {
        case manager(ObjectID)
        case liveUpdates(ObjectID)
    }
    public var channel: Channel
    public var fix: Fix?
    /// The live update's flags (always empty for a manager's location).
    public var diagnostics: LocationDiagnostics

    package init(channel: Channel, fix: Fix?, diagnostics: LocationDiagnostics = []) {
        self.channel = channel
        self.fix = fix
        self.diagnostics = diagnostics
    }

    /// The stationary flag (R-C2).
    public var stationary: Bool { diagnostics.contains(.stationary) }

    /// The live-updates stream this update belongs to; nil for a manager's location.
    public var liveUpdates: LiveUpdatesID? {
        if case .liveUpdates(let stream) = channel { LiveUpdatesID(stream) } else { nil }
    }

    // `CLLocationUpdate`'s names (iOS 17 and 18) for the same fields (R-C1).
    /// `location`: the fix, nil when none is available now.
    public var location: Fix? { fix }
    /// `isStationary`.
    public var isStationary: Bool { stationary }
    /// `locationUnavailable`.
    public var locationUnavailable: Bool { diagnostics.contains(.locationUnavailable) }
    /// `authorizationDenied`.
    public var authorizationDenied: Bool { diagnostics.contains(.authorizationDenied) }
    /// `insufficientlyInUse`.
    public var insufficientlyInUse: Bool { diagnostics.contains(.insufficientlyInUse) }
    /// `serviceSessionRequired`.
    public var serviceSessionRequired: Bool { diagnostics.contains(.serviceSessionRequired) }
    /// `accuracyLimited`.
    public var accuracyLimited: Bool { diagnostics.contains(.accuracyLimited) }

    public var description: String {
        let source =
            switch channel {
            case .manager(let id): "manager \(id)"
            case .liveUpdates(let id): "live \(id)"
            }
        let flags = diagnostics.isEmpty ? "" : " \(diagnostics)"
        return "\(source) \(fix.map(\.description) ?? "no location")\(flags)"
    }
}

/// An error a manager reports (`didFailWithError`, `monitoringDidFailFor`), named after
/// `CLError.Code`.
public enum LocationError: String, Sendable {
    /// Access to location was lost (R-A4).
    case denied
    /// A region could not be monitored: over the limit of `regionCountMax`, or reduced
    /// accuracy (R-F8, R-F10).
    case regionMonitoringFailure = "region-monitoring-failure"
    /// No location could be determined in time for `requestLocation()` (R-G1,
    /// `CLError.locationUnknown`).
    case locationUnknown = "location-unknown"
    /// No temporary full accuracy prompt could show (`CLError.promptDeclined`, which Apple's
    /// page names for "an error prevented the prompt from being displayed").
    case promptDeclined = "prompt-declined"
}

/// A circular region for legacy region monitoring (`CLCircularRegion`, R-B6, R-F8).
public struct CircularRegion: Sendable, Equatable {
    public var identifier: String
    public var center: Coordinate
    public var radiusMeters: Double

    public init(identifier: String, center: Coordinate, radiusMeters: Double) {
        self.identifier = identifier
        self.center = center
        self.radiusMeters = radiusMeters
    }
}

/// A monitoring event: significant change, a monitor condition's exit or entry, a legacy
/// region's exit or entry, a visit. Exits and entries alternate as the device leaves and comes
/// back (R-F8), and each relaunches an Always app like the others (R-A10).
public enum MonitoringEvent: Sendable, Equatable, CustomStringConvertible {
    case significantChange(Fix)
    case conditionExit(monitor: String, condition: String)
    /// The device came into a monitor condition (the condition became satisfied).
    case conditionEntry(monitor: String, condition: String)
    case regionExit(identifier: String)
    /// `didEnterRegion` for a legacy region.
    case regionEntry(identifier: String)
    case visitArrival(Coordinate)
    case visitDeparture(Coordinate)
    /// A condition added through a `Monitor` object changed state: its record, with the
    /// instant the daemon determined it (an exit is unsatisfied, an entry satisfied, R-F8).
    ///
    /// `indirect` (its payload boxed): inline, its name and record made the outlined copy and
    /// destroy of every `AppItem` and log entry handle a 73-byte payload in place. This event
    /// is rare, so the box costs little (see `MessageLayoutTests`).
    indirect case conditionChanged(monitor: String, MonitorRecord)

    /// The mechanism that relaunches an ended app for this event (R-A10).
    public var mechanism: RelaunchMechanism {
        switch self {
        case .significantChange: .significantChange
        case .conditionExit, .conditionEntry, .conditionChanged, .regionExit, .regionEntry:
            .region
        case .visitArrival, .visitDeparture: .visit
        }
    }

    public var description: String {
        switch self {
        case .significantChange(let fix): "significant change \(fix)"
        case .conditionExit(let monitor, let condition): "exit \(monitor)/\(condition)"
        case .conditionEntry(let monitor, let condition): "entry \(monitor)/\(condition)"
        case .regionExit(let identifier): "region exit \(identifier)"
        case .regionEntry(let identifier): "region entry \(identifier)"
        case .visitArrival(let at): "visit arrival \(at)"
        case .visitDeparture(let at): "visit departure \(at)"
        case .conditionChanged(let monitor, let record): "condition \(monitor)/\(record)"
        }
    }
}

/// What the app learns at `didFinishLaunching`.
/// The boot time as `sysctl kern.boottime` gives it: when the device last booted, as an
/// offset from the scenario's start (negative for the boot before the run,
/// `WorldConfiguration.uptimeAtStart`). It is fixed for a boot: a relaunch reads the same
/// value, a reboot a new one. The world's clock does not drift, so neither does this value.
public struct BootTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The boot's instant minus the scenario's start.
    package var sinceStart: VirtualDuration

    package init(sinceStart: VirtualDuration) { self.sinceStart = sinceStart }

    public static func < (lhs: BootTime, rhs: BootTime) -> Bool { lhs.sinceStart < rhs.sinceStart }

    /// The duration from the boot to `instant` (the uptime then).
    public func uptime(at instant: Instant) -> VirtualDuration {
        (instant - .start) - sinceStart
    }

    public var description: String { "boot at start \(sinceStart)" }
}

public struct LaunchContext: Sendable, Equatable, CustomStringConvertible {
    /// Foreground (the user launched it) or background (relaunched for an event).
    public var state: ProcessState
    /// False when launched before the first unlock after a boot: saved state is unreadable
    /// (R-D9).
    public var protectedDataAvailable: Bool
    /// Launch option keys: empty for scene-based apps (R-A11).
    public var launchOptions: [String]
    /// The authorization at launch.
    public var authorization: Authorization
    /// The accuracy authorization at launch (`accuracyAuthorization`). Left out of
    /// `description`, which the trace prints, so that traces recorded before it stay the same.
    public var accuracyAuthorization: AccuracyAuthorization = .full

    public var description: String {
        "\(state.rawValue), data \(protectedDataAvailable ? "readable" : "locked"), options ["
            + launchOptions.joined(separator: ",") + "], authorization \(authorization.rawValue)"
    }
}

/// A monitored region as the location daemon knows it: a `CLMonitor` condition (by monitor
/// and condition name) or a legacy `CLCircularRegion` (by identifier).
package enum RegionKey: Hashable, Sendable, CustomStringConvertible {
    case condition(monitor: String, name: String)
    case region(String)

    /// True for a legacy `CLCircularRegion`.
    package var isLegacyRegion: Bool { if case .region = self { true } else { false } }

    package var description: String {
        switch self {
        case .condition(let monitor, let name): "\(monitor)/\(name)"
        case .region(let identifier): "region \(identifier)"
        }
    }
}

/// The blue background location indicator appeared (`shown`) or went, at `instant` (R-B8,
/// R-A8).
package struct LocationIndicatorChange: Sendable, Equatable, CustomStringConvertible {
    package var instant: Instant
    package var shown: Bool

    package init(instant: Instant, shown: Bool) {
        self.instant = instant
        self.shown = shown
    }

    package var description: String {
        "location indicator \(shown ? "shown" : "hidden") at \(instant)"
    }
}

/// How long the device has slept since it booted: `ProcessInfo.systemUptime` (like
/// `mach_absolute_time`) does not advance while it sleeps (source B: "systemUptime, which
/// pauses while the device sleeps"). The model's device sleeps while its screen is locked, and
/// boots to the lock screen; a real device also wakes briefly for work while locked, which is
/// not modelled.
struct DeviceSleep: Sendable {
    /// Sleep that has ended, since the boot.
    private var slept = VirtualDuration.zero
    /// When the current sleep began, if the device sleeps now.
    private var since: Instant?

    init(asleepSince: Instant? = nil) { since = asleepSince }

    /// The screen was locked (sleep begins) or unlocked (it ends) at `now`.
    mutating func screenLocked(_ locked: Bool, at now: Instant) {
        if locked {
            if since == nil { since = now }
        } else if let began = since {
            slept = slept + (now - began)
            since = nil
        }
    }

    /// The time asleep from the boot to `now`.
    func asleep(until now: Instant) -> VirtualDuration {
        slept + (since.map { now - $0 } ?? .zero)
    }
}
