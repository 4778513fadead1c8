// Source B's lifecycle matrix (001_…) as an experiment over the built-in engines: five
// boundaries, and for each the gap it causes in the stored fixes.
import Simulation
import World

/// Source B's matrix: backgrounded, suspended while parked, killed for memory, force-quit and
/// rebooted, each run for an engine under a policy, and what each boundary cost.
///
/// Engines run with their default settings, `startOnBoot` on (`startOnBoot`). Every scenario
/// has the same start: an Always app with the location background mode, opened
/// by the user at the start (the host app starts tracking), left after `leaveAfter` while the
/// device drives at `driveSpeedMetersPerSecond`. Then:
/// - `backgrounded`: it drives on in the background; fixes are wanted from the leave.
/// - `suspended-parked`: it parks `parkAfter` in, for `parkedFor`; it drives off again, and
///   fixes are wanted from the drive-off.
/// - `memory-kill`: as `suspended-parked`, and memory pressure `killAfterParking` into the
///   park (it ends the app if suspended, R-F3); fixes are wanted from the drive-off.
/// - `force-quit`: the user swipes the app away `parkAfter` in, while driving; fixes are
///   wanted from the swipe.
/// - `reboot-parked`: as `suspended-parked`, and the device reboots `killAfterParking` into
///   the park; the user unlocks it `unlockAfterReboot` later; fixes are wanted from the reboot
///   (source B measured the return while parked).
///
/// Each row's figures:
/// - `gapSeconds`: from the moment fixes are wanted to the first fix stored after it, less
///   the engine's recording interval (a fix every interval is no gap), never negative; the
///   whole rest of the run when no fix is stored again.
/// - `fixesLost`: the engine's recording slots (one each recording interval) that fell between
///   the last fix stored within one interval before fixes were wanted (or, if none, the moment
///   they were wanted) and the first stored after.
/// - `relaunchSeconds`: from the moment fixes are wanted to the first launch after the
///   boundary, nil when the app was not launched again.
package struct LifecycleMatrix: Sendable {
    /// The five scenarios, with source B's names.
    package enum Scenario: String, Sendable, CaseIterable, CustomStringConvertible {
        case backgrounded
        case suspendedParked = "suspended-parked"
        case memoryKill = "memory-kill"
        case forceQuit = "force-quit"
        case rebootParked = "reboot-parked"

        package var description: String { rawValue }

        /// Source B's measured gap for its session engine.
        package var measuredGap: String {
            switch self {
            case .backgrounded: "none"
            case .suspendedParked: "none once moving"
            case .memoryKill, .forceQuit: "~1 s"
            case .rebootParked: "~1 min"
            }
        }
    }

    /// One run's figures.
    package struct Row: Sendable, Equatable {
        /// A built-in engine, or a team's own (`lifeline experiment matrix --engine NAME`).
        package var engine: EngineChoice
        package var scenario: Scenario
        package var gapSeconds: Double
        package var fixesLost: Int
        package var relaunchSeconds: Double?
    }

    package var policy: IOSPolicy
    /// 50 km/h, a town drive.
    package var driveSpeedMetersPerSecond = 13.9
    /// When the user leaves the app after opening it.
    package var leaveAfter = VirtualDuration.seconds(60)
    /// When the device parks, or the app is swiped away while driving.
    package var parkAfter = VirtualDuration.minutes(5)
    /// How long it stays parked: long enough for live updates to pause (R-C2) and the app to
    /// be suspended.
    package var parkedFor = VirtualDuration.minutes(20)
    /// When, into the park, memory pressure or the reboot comes.
    package var killAfterParking = VirtualDuration.minutes(10)
    /// When the user unlocks the phone after the reboot (R-D9: the engine's saved state is
    /// unreadable until then).
    package var unlockAfterReboot = VirtualDuration.seconds(20)
    /// How long each run goes on after fixes are wanted.
    package var observedFor = VirtualDuration.minutes(15)
    package var seed: UInt64 = 1
    /// Engines with a `startOnBoot` setting run with it on (R-B12): source B measured its
    /// reboot row so ("Reboot: enable startOnBoot, start tracking, reboot").
    package var startOnBoot = true

    package init(policy: IOSPolicy = .measured) { self.policy = policy }

    /// Every scenario for each engine, engines in the given order.
    package func run(engines: [BuiltInEngine] = BuiltInEngine.allCases) -> [Row] {
        run(choices: engines.map(EngineChoice.builtIn))
    }

    /// Every scenario for each engine, built-in or a team's own, in the given order.
    package func run(choices engines: [EngineChoice]) -> [Row] {
        engines.flatMap { engine in Scenario.allCases.map { run(engine, $0) } }
    }

    /// One scenario for one built-in engine.
    package func run(_ engine: BuiltInEngine, _ scenario: Scenario) -> Row {
        run(.builtIn(engine), scenario)
    }

    /// One scenario for one engine. A custom engine's recording interval is taken to be the
    /// policy's `fixInterval` (a fix wanted every interval).
    package func run(_ engine: EngineChoice, _ scenario: Scenario) -> Row {
        let plan = self.plan(scenario)
        var world = World(
            WorldConfiguration(
                policy: policy, authorization: .always, route: plan.route, seed: seed)
        ) { engine.make(launchRules: LaunchRules(startOnBoot: startOnBoot)) }
        for (offset, action) in plan.actions { world.schedule(action, at: .start + offset) }
        let wanted = Instant.start + plan.fixesWantedFrom
        let end = wanted + observedFor
        world.run(until: end)

        let interval = engine.base?.recordingInterval(under: policy) ?? policy.fixInterval
        // Rows the engine deleted later were stored all the same (R-S1): an engine that
        // deletes what its server accepted has no gap where they were.
        let deleted = world.log.flatMap { entry -> [StoredRow] in
            if case .rowsDeleted(_, let rows, _) = entry.kind { rows } else { [] }
        }
        let stored = (world.storedRows + deleted).compactMap(\.fix).map(\.instant)
        let firstStored = stored.filter { $0 >= wanted }.min()
        let stretch = (firstStored ?? end) - wanted
        let gap = firstStored == nil ? stretch : max(.zero, stretch - interval)
        // The slots lost: those due after the last fix stored within one interval before fixes
        // were wanted (or, if none, after the moment they were wanted), and before the first
        // stored after.
        let recent = stored.filter { $0 < wanted && wanted - $0 <= interval }.max()
        let anchor = recent ?? wanted
        let slack = VirtualDuration.milliseconds(1)
        let lost = max(
            0, ((firstStored ?? end) - anchor - slack).nanoseconds / interval.nanoseconds)
        let boundary = Instant.start + plan.boundary
        let relaunch = world.log.first { entry in
            guard entry.instant > boundary, case .launch = entry.kind else { return false }
            return true
        }
        return Row(
            engine: engine, scenario: scenario, gapSeconds: gap.seconds,
            fixesLost: Int(lost),
            relaunchSeconds: relaunch.map { ($0.instant - wanted).seconds })
    }

    /// A scenario's route, its actions, when its boundary happens and when fixes are wanted:
    /// what a run of the scenario is built from (the invariants' tests run the same scenarios).
    package struct Plan: Sendable {
        /// Where the device goes.
        package var route: Route
        /// The user's and the system's actions, as offsets from the start, in order.
        package var actions: [(VirtualDuration, UserAction)]
        /// When the scenario's boundary (the leave, the park, the kill, the swipe, the reboot)
        /// happens, from the start.
        package var boundary: VirtualDuration
        /// From when fixes are wanted again after the boundary, from the start.
        package var fixesWantedFrom: VirtualDuration
    }

    /// The plan of `scenario` under this matrix's numbers.
    package func plan(_ scenario: Scenario) -> Plan {
        let drive = Route.Segment(
            .drive, parkAfter, speedMetersPerSecond: driveSpeedMetersPerSecond)
        let driveOn = Route.Segment(
            .drive, parkedFor + observedFor + .hours(1),
            speedMetersPerSecond: driveSpeedMetersPerSecond)
        let park = Route.Segment(.park, parkedFor)
        let start = BuiltInEngine.hostHome
        let opening: [(VirtualDuration, UserAction)] = [(.zero, .open), (leaveAfter, .leave)]
        let driveOff = parkAfter + parkedFor
        let struck = parkAfter + killAfterParking
        switch scenario {
        case .backgrounded:
            return Plan(
                route: Route(start: start, headingDegrees: 90, segments: [drive, driveOn]),
                actions: opening, boundary: leaveAfter, fixesWantedFrom: leaveAfter)
        case .suspendedParked:
            return Plan(
                route: Route(start: start, headingDegrees: 90, segments: [drive, park, driveOn]),
                actions: opening, boundary: parkAfter, fixesWantedFrom: driveOff)
        case .memoryKill:
            return Plan(
                route: Route(start: start, headingDegrees: 90, segments: [drive, park, driveOn]),
                actions: opening + [(struck, .memoryPressure)], boundary: struck,
                fixesWantedFrom: driveOff)
        case .forceQuit:
            return Plan(
                route: Route(start: start, headingDegrees: 90, segments: [drive, driveOn]),
                actions: opening + [(parkAfter, .forceQuit)], boundary: parkAfter,
                fixesWantedFrom: parkAfter)
        case .rebootParked:
            return Plan(
                route: Route(start: start, headingDegrees: 90, segments: [drive, park, driveOn]),
                actions: opening + [(struck, .reboot), (struck + unlockAfterReboot, .unlock)],
                boundary: struck, fixesWantedFrom: struck)
        }
    }
}
