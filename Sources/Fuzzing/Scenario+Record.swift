// A scenario run as a record the invariants read (layer 5).
import Engines
import Invariants
import Scenarios
import Simulation
import World

extension Scenario {
    /// Runs the scenario to its horizon and records everything the invariants read: the log,
    /// the disk, the server, the trace's digest (and the full trace when `keepsTrace` is set,
    /// for pictures and trace files) and every engine with its events (none from a built-in
    /// engine when `keepsNarration` is false: `RunRecord.run(keepsNarration:)`).
    /// - Throws: what `makeWorld` throws (a bad policy, a bad GPX route); `ModelLoop` when
    ///   Lifeline's own model looped (its error, not a verdict on the app).
    public func record(keepsTrace: Bool = false, keepsNarration: Bool = true) throws -> RunRecord {
        try record(
            policy: try policy.makePolicy(), keepsTrace: keepsTrace, keepsNarration: keepsNarration)
    }

    /// The same, under `policy` instead of the scenario's own (`lifeline diff`, `lifeline
    /// sweep`): everything else as the scenario says.
    /// - Throws: `GPXError` for a bad GPX route.
    public func record(policy: IOSPolicy, keepsTrace: Bool = false, keepsNarration: Bool = true)
        throws -> RunRecord
    {
        let configuration = try worldConfiguration(policy: policy)
        let actions = events.map { ScheduledAction(.start + $0.at, $0.event) }
        let engine = self.engine
        let profile = engine.name.profile
        let record = RunRecord.run(
            configuration: configuration, actions: actions, horizon: .start + horizon,
            launchRules: engine.launchRules, reader: profile.reader,
            trackingStart: profile.trackingStart, keepsTrace: keepsTrace,
            keepsNarration: keepsNarration, engine: engine.make)
        if let loop = record.modelLoop { throw loop }
        if let unreadable = record.firstUnreadableRow { throw unreadable }
        return record
    }
}

extension ScenarioEngine {
    /// The launch rules the engine honours, for `configuration-honoured`; nil for an engine
    /// that has none (`LocationRuntime` restores what its record says).
    public var launchRules: LaunchRules? {
        guard name.honoursLaunchRules else { return nil }
        return LaunchRules(
            stopOnTerminate: settings.stopOnTerminate, startOnBoot: settings.startOnBoot)
    }
}
