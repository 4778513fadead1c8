// Scenarios for the fuzzer (layer 5): routes, user and OS events, permission changes and
// same-instant orderings, drawn on the exploration engine so that a failure shrinks to a short
// story: fewer events, shorter routes, round times, FIFO ordering.
import Engines
import Exploration
import Scenarios
import Simulation
import World

/// The scenarios `lifeline fuzz` generates for one engine.
///
/// Every scenario starts with the user opening the app at 0 s (the host app starts tracking;
/// an app that waits for its switch, `TrackingStart.onUserToggle`, gets `tracking on` within
/// `trackingOnWithin`); then a route of up to `segmentCountMax` drive and park segments in
/// whole minutes, up to `eventCountMax` more external events at whole seconds, chosen under a
/// swarm mask over event kinds (so that rare combinations come up; every `UserAction` of the
/// world is among them), and the policy, permissions, answers to prompts, engine settings and
/// same-instant ordering around them. The run goes on `settleTime` after the route ends, the
/// device parked, so that what was stored has time to upload. Every choice's simplest value
/// is the usual one (`measured`, Always, full accuracy, FIFO, no event), so shrinking moves
/// toward it.
///
/// The app's facts come from its `profile` and stay fixed: its Info.plist (a declared
/// background mode is never removed), its launch rules when it fixes them, and the
/// authorizations it can hold (an app that asks only for When In Use never gets Always, and
/// answers the Always prompt only if it shows it). `fuzzesProfile` draws them too.
public struct ScenarioGenerator: Sendable {
    /// The engine under test.
    public var engine: EngineChoice
    /// What its app declares (`EngineChoice.profile` unless set): kept in every scenario.
    public var profile: AppProfile
    /// Whether the profile's facts are drawn too (`lifeline fuzz --fuzz-profile`): the
    /// location background mode (usually declared), Always for any app, and the launch rules
    /// even when the profile fixes them. For a team asking "what if we dropped the mode?".
    public var fuzzesProfile = false
    /// External events after the opening one, at most (the shrink target is 8 in all).
    public var eventCountMax = 7
    /// Route segments, at most.
    public var segmentCountMax = 4
    /// The longest segment.
    public var segmentMinutesMax: Int64 = 30
    /// How long the run goes on after the route ends.
    public var settleTime = VirtualDuration.minutes(10)
    /// The shortest route: a shorter one, or one without a drive, ends with a drive at town
    /// speed of the whole minutes it lacks (at least one). Zero, the fuzzer's default, adds
    /// nothing and draws nothing, so the fuzzer's cases are unchanged by it.
    public var routeTimeMin = VirtualDuration.zero
    /// The fewest lifecycle events after the opening one (`isLifecycle`): the missing ones are
    /// drawn as more events of those kinds. Zero, the default, draws nothing.
    public var lifecycleEventCountMin = 0
    /// The policy presets drawn from, the first the simplest (`defaultPresets` unless
    /// narrowed or widened: any name `ScenarioPolicy` accepts).
    public var presets = ScenarioGenerator.defaultPresets
    /// Which external events may be drawn, if narrowed: a drawn event it refuses is left out
    /// of the scenario (the draws stay the same, so a case shrinks as before). Nil, the
    /// default, keeps every kind.
    public var eventFilter: (@Sendable (UserAction) -> Bool)?
    /// Whether the server's behaviour and the Location Services switch are drawn too: the
    /// actions `server down|up|slow|throttling` (R-N41, R-N43, R-N44) and
    /// `location-services on|off` (R-L40) as more kinds of event under the swarm mask, and the
    /// policy's `serverErrorPercent` (R-N42) as an override. Off by default: a generator that
    /// drew them would draw every existing seed's case differently (the mask has more
    /// features), and the fuzzer's cases and the corpus's verdicts would move.
    public var drawsServerAndLocationServices = false

    /// With a profile of `TrackingStart.onUserToggle`, the user turns tracking on within
    /// this of the opening (whole seconds, 0 the simplest), so that every run tracks a while.
    public var trackingOnWithin = VirtualDuration.minutes(2)
    /// Draw the user plugging the charger in and pulling it out (`UserAction.setCharger`,
    /// R-B2) as one more kind of the swarm mask, the last. Off by default: a new kind changes
    /// the mask's draws, so with it off every seed draws the scenarios it drew before.
    public var drawsCharger = false

    public init(engine: EngineChoice) {
        self.engine = engine
        profile = engine.profile
    }

    /// The workload of `lifeline bench fuzz`: every scenario has a route of at
    /// least an hour with a drive, and at least three lifecycle events besides the opening.
    public static func benchmark(engine: EngineChoice) -> ScenarioGenerator {
        var generator = ScenarioGenerator(engine: engine)
        generator.routeTimeMin = .minutes(60)
        generator.lifecycleEventCountMin = 3
        return generator
    }

    /// Whether `event` is one of the app's lifecycle: it is opened or left, force-quit,
    /// purged for memory, crashes, exits, or the device reboots.
    public static func isLifecycle(_ event: UserAction) -> Bool {
        switch event {
        case .open, .leave, .forceQuit, .memoryPressure, .crash, .exit, .reboot: true
        default: false
        }
    }

    /// The lifecycle kinds drawn to reach `lifecycleEventCountMin`.
    static let lifecycleKinds: [UserAction] = [
        .leave, .open, .forceQuit, .memoryPressure, .crash, .reboot,
    ]

    /// The kinds of external event, each one feature of the swarm mask: between them every
    /// case of `UserAction` (`GeneratorCoverageTests` checks each kind of
    /// `UserAction.readable` is drawn). The user sets the app's permission to `denied` or to
    /// one of `authorizations`.
    static func eventKinds(
        authorizations: [Authorization], charger: Bool = false, server: Bool = false
    ) -> [Gen<UserAction>] {
        baseEventKinds(authorizations: authorizations) + (charger ? chargerEventKinds : [])
            + (server ? serverEventKinds : [])
    }

    /// The user plugging and unplugging the charger (`drawsCharger`).
    static var chargerEventKinds: [Gen<UserAction>] { [Gen<Bool>.bool.map { .setCharger($0) }] }

    /// The server's behaviours and the Location Services switch
    /// (`drawsServerAndLocationServices`).
    static var serverEventKinds: [Gen<UserAction>] {
        [
            .constant(.serverDown), .constant(.serverUp),
            Gen.element(of: slowNetworkDelays).map { .serverSlow($0) },
            Gen.element(of: retryAfterDelays).map { .serverThrottling($0) },
            Gen<Bool>.bool.map { .setLocationServices($0) },
        ]
    }

    /// The `Retry-After` delays of a throttling server (R-N43), within a correct uploader's
    /// longest retry wait (`UploaderConfiguration.retryDelayMax`, 5 min).
    static let retryAfterDelays: [VirtualDuration] = [.seconds(30), .minutes(2)]

    /// The share of requests an erring server answers 500 (an override of the policy's
    /// `serverErrorPercent`, R-N42).
    static let erringServerPercent = 30

    static func baseEventKinds(authorizations: [Authorization]) -> [Gen<UserAction>] {
        [
            .constant(.leave), .constant(.open), .constant(.forceQuit), .constant(.memoryPressure),
            .constant(.lock), .constant(.unlock), .constant(.reboot), .constant(.crash),
            Gen.element(of: [Authorization.denied] + authorizations).map { .setAuthorization($0) },
            Gen<Bool>.bool.map { .setAccuracy($0 ? .full : .reduced) },
            .constant(.networkDown), .constant(.networkUp),
            Gen<Bool>.bool.map { .setLowPowerMode($0) },
            .constant(.startLiveActivity), .constant(.endLiveActivity),
            .constant(.exit),
            Gen.element(of: slowNetworkDelays).map { .networkSlow($0) },
            clockAdjustment,
            .constant(.trackingOff), .constant(.trackingOn),
            Gen<Bool>.bool.map { .attachTestHost($0) },
            .constant(.silentPush),
            Gen<Bool>.bool.map { .setBackgroundRefresh($0) },
        ]
    }

    /// The extra latencies of a slow network.
    static let slowNetworkDelays: [VirtualDuration] = [.seconds(5), .seconds(30), .minutes(2)]

    /// The largest wall-clock adjustment drawn, either way, and the largest the adjustments of
    /// one scenario add up to (`withinClockDrift`): R-B12 counts a boot time that moved by at
    /// most `LaunchRules.bootTimeDriftTolerance` (60 s) as the same boot, for network time's
    /// small corrections; within ±30 s from the start, any two launches differ by at most 60 s.
    static let clockDriftMax = VirtualDuration.seconds(30)

    /// A wall-clock adjustment of whole seconds, forward or back, at most `clockDriftMax`.
    static var clockAdjustment: Gen<UserAction> {
        Gen("clock") { testCase in
            let seconds = Gen<Int64>.int64(in: 1...(clockDriftMax.nanoseconds / 1_000_000_000))
                .generate(testCase)
            let back = Gen<Bool>.bool.generate(testCase)
            return .adjustClock(by: .seconds(back ? -seconds : seconds))
        }
    }

    /// `events` in time order (ties in their order), without the clock adjustments that would
    /// take the clock's total adjustment from the start past `clockDriftMax` either way
    /// (`clockAdjustment`).
    static func withinClockDrift(_ events: [TimedEvent]) -> [TimedEvent] {
        var total = VirtualDuration.zero
        let sorted = events.enumerated()
            .sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        return sorted.filter { timed in
            guard case .adjustClock(let offset) = timed.event else { return true }
            let moved = total + offset
            guard moved <= clockDriftMax, moved >= .zero - clockDriftMax else { return false }
            total = moved
            return true
        }
    }

    /// Presets, `measured` first (the simplest): every preset of `IOSPolicy.presetNames`.
    public static let defaultPresets = ["measured", "iOS18", "iOS26", "iOS17", "iOS16"]
    /// Ground speeds of a drive: a town drive first.
    static let speeds = [13.9, 5.0, 30.0]
    /// The share of upload requests a failing network loses (an override of the policy's
    /// `networkFailurePercent`).
    static let failingNetworkPercent = 30

    /// The generator.
    public var scenarios: Gen<Scenario> {
        let settings = self
        let segment = Self.segment(minutesMax: segmentMinutesMax)
        // The generators that do not depend on earlier draws are made here, once, not in every
        // case: making one (its label, its weights) cost more than drawing from it. The same
        // generators, so the same labels and the same draws.
        let profile = settings.profile
        let fuzzesProfile = settings.fuzzesProfile
        // The authorizations the app can hold besides denied, the one it asks for first.
        let grantable: [Authorization] =
            fuzzesProfile ? [.always, .whenInUse] : profile.authorization.grantable
        let asksForAlways = fuzzesProfile || profile.authorization.asksForAlways
        let drawsServer = settings.drawsServerAndLocationServices
        let eventKinds = Self.eventKinds(
            authorizations: grantable.reversed(), charger: settings.drawsCharger,
            server: drawsServer)
        let swarm = Gen<FeatureMask>.swarm(featureCount: eventKinds.count)
        let preset = Gen.element(
            of: settings.presets.isEmpty ? Self.defaultPresets : settings.presets)
        let authorization = Self.usually(
            grantable[0], else: Array(grantable.dropFirst()) + [.notDetermined])
        let whenInUseAnswer = Self.usually(Authorization.whenInUse, else: [.denied])
        let alwaysAnswer = Self.usually(Authorization.always, else: [.whenInUse])
        let accuracy = Self.usually(AccuracyAuthorization.full, else: [.reduced])
        let backgroundMode = Self.usually(true, else: [false])
        let ordering = Self.ordering
        let route = Gen.array(of: segment, length: 1...settings.segmentCountMax)
        let toggleSecondsMax = max(0, settings.trackingOnWithin.nanoseconds / 1_000_000_000)
        let trackingOnSecond = Gen<Int64>.int64(in: 0...toggleSecondsMax)
        return Gen("scenario") { testCase in
            let mask = swarm.generate(testCase)
            var scenario = Scenario()
            if let rules = profile.launchRules, !fuzzesProfile {
                scenario.engine = ScenarioEngine(
                    settings.engine, stopOnTerminate: rules.stopOnTerminate,
                    startOnBoot: rules.startOnBoot)
            } else {
                // Both drawn for every engine, so the choices stay the same; kept only for an
                // engine that honours them, as a file may give them only to such an engine.
                let honours = settings.engine.honoursLaunchRules
                let stopOnTerminate = Gen<Bool>.bool.generate(testCase)
                let startOnBoot = Gen<Bool>.bool.generate(testCase)
                scenario.engine = ScenarioEngine(
                    settings.engine, stopOnTerminate: honours && stopOnTerminate,
                    startOnBoot: honours && startOnBoot)
            }
            scenario.policy.preset = preset.generate(testCase)
            if Gen<Bool>.bool.generate(testCase) {
                scenario.policy.overrides = [
                    .init("networkFailurePercent", "\(Self.failingNetworkPercent)")
                ]
            }
            if drawsServer && Gen<Bool>.bool.generate(testCase) {
                scenario.policy.overrides.append(
                    .init("serverErrorPercent", "\(Self.erringServerPercent)"))
            }
            scenario.authorization = authorization.generate(testCase)
            scenario.answers.whenInUse = whenInUseAnswer.generate(testCase)
            if asksForAlways { scenario.answers.always = alwaysAnswer.generate(testCase) }
            scenario.accuracy = accuracy.generate(testCase)
            scenario.capabilities = profile.capabilities
            if fuzzesProfile {
                scenario.capabilities.locationBackgroundMode = backgroundMode.generate(testCase)
            }
            scenario.ordering = ordering.generate(testCase)
            let segments = Self.joined(settings.lengthened(route.generate(testCase)))
            scenario.route = .segments(
                start: Scenario.defaultStart, headingDegrees: Scenario.defaultHeadingDegrees,
                segments)
            let routeTime = segments.reduce(VirtualDuration.zero) { $0 + $1.duration }
            scenario.horizon = routeTime + settings.settleTime
            let event = Self.event(enabledBy: mask, kinds: eventKinds, within: scenario.horizon)
            var drawn = Gen.array(of: event, length: 0...settings.eventCountMax)
                .generate(testCase)
            let lifecycleCount = drawn.count(where: { Self.isLifecycle($0.event) })
            if lifecycleCount < settings.lifecycleEventCountMin {
                let lifecycle = Self.event(
                    of: Gen.element(of: Self.lifecycleKinds), within: scenario.horizon)
                for _ in lifecycleCount..<settings.lifecycleEventCountMin {
                    drawn.append(lifecycle.generate(testCase))
                }
            }
            if let keep = settings.eventFilter { drawn.removeAll { !keep($0.event) } }
            var opening = [TimedEvent(at: .zero, .open)]
            if profile.trackingStart == .onUserToggle {
                let at = VirtualDuration.seconds(trackingOnSecond.generate(testCase))
                opening.append(TimedEvent(at: min(at, scenario.horizon), .trackingOn))
            }
            scenario.events = opening + Self.withinClockDrift(drawn)
            return scenario
        }
    }

    /// `segments`, ended by a drive when they are shorter than `routeTimeMin` or have no
    /// drive (only when `routeTimeMin` is above zero).
    func lengthened(_ segments: [Route.Segment]) -> [Route.Segment] {
        guard routeTimeMin > .zero else { return segments }
        let routeTime = segments.reduce(VirtualDuration.zero) { $0 + $1.duration }
        let hasDrive = segments.contains { $0.kind == .drive }
        guard routeTime < routeTimeMin || !hasDrive else { return segments }
        let minute = VirtualDuration.minutes(1).nanoseconds
        let lacking = max(0, (routeTimeMin - routeTime).nanoseconds)
        let minutes = max(1, (lacking + minute - 1) / minute)
        return segments + [
            .init(
                .drive, .minutes(minutes), speedMetersPerSecond: Self.speeds[0],
                headingChangeDegrees: 0)
        ]
    }

    /// `segments` with each one that goes straight on from the one before (the same kind and
    /// speed, no turn) joined to it: the same route, told as a shorter story ("drive 6m", not
    /// "drive 1m" then "drive 5m"). Exact for segments of whole minutes: the route's waypoints
    /// fall on the same minutes either way.
    static func joined(_ segments: [Route.Segment]) -> [Route.Segment] {
        var joined: [Route.Segment] = []
        for segment in segments {
            if let last = joined.last, segment.kind == last.kind,
                segment.speedMetersPerSecond == last.speedMetersPerSecond,
                segment.headingChangeDegrees == 0
            {
                joined[joined.count - 1].duration = last.duration + segment.duration
            } else {
                joined.append(segment)
            }
        }
        return joined
    }

    /// `common` (the simplest) four times in five, otherwise one of `rare`.
    static func usually<Value>(_ common: Value, else rare: [Value]) -> Gen<Value> {
        let commonWeight = 4 * rare.count
        return Gen.weighted(
            [(commonWeight, Gen.constant(common))] + rare.map { (1, Gen.constant($0)) })
    }

    /// A drive (the simplest) or a park of whole minutes.
    static func segment(minutesMax: Int64) -> Gen<Route.Segment> {
        Gen("segment") { testCase in
            let minutes = Gen<Int64>.int64(in: 1...minutesMax).generate(testCase)
            if Gen<Bool>.bool.generate(testCase) { return .init(.park, .minutes(minutes)) }
            let speed = Gen.element(of: speeds).generate(testCase)
            let turn = Gen.element(of: [0.0, 90.0, -90.0]).generate(testCase)
            return .init(
                .drive, .minutes(minutes), speedMetersPerSecond: speed, headingChangeDegrees: turn)
        }
    }

    /// An event of a kind of `kinds` (`eventKinds`) that `mask` enables, at a whole second
    /// before `horizon`; the seconds past the minute are drawn apart, so that they shrink to a
    /// round minute.
    static func event(
        enabledBy mask: FeatureMask, kinds: [Gen<UserAction>], within horizon: VirtualDuration
    ) -> Gen<TimedEvent> {
        event(of: Gen.weighted(kinds.map { (1, $0) }, enabledBy: mask), within: horizon)
    }

    /// An event of a kind `kinds` draws, at a whole second before `horizon`.
    static func event(of kinds: Gen<UserAction>, within horizon: VirtualDuration)
        -> Gen<TimedEvent>
    {
        let minutesMax = max(0, horizon.nanoseconds / VirtualDuration.minutes(1).nanoseconds - 1)
        return Gen("event") { testCase in
            let minute = Gen<Int64>.int64(in: 0...minutesMax).generate(testCase)
            let second = Gen<Int64>.int64(in: 0...59).generate(testCase)
            let kind = kinds.generate(testCase)
            return TimedEvent(at: .minutes(minute) + .seconds(second), kind)
        }
    }

    /// FIFO (the simplest), or a seeded random or PCT ordering of same-instant deliveries.
    static var ordering: Gen<OrderingSpecification> {
        Gen("ordering") { testCase in
            let seed = UInt64(Gen<Int64>.int64(in: 1...1_000).generate(testCase))
            return Gen.element(of: [
                OrderingSpecification.fifo, .random(seed: seed), .pct(seed: seed, depth: 2),
            ]).generate(testCase)
        }
    }
}
