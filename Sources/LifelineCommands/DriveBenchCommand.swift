// `lifeline bench drive`: one long drive, run and judged as `lifeline run` does, with its wall
// time and the process's peak memory, to see how both grow with simulated time.
import Benchmarks
import Engines
import Fuzzing
import Invariants
import Scenarios
import Simulation

enum DriveBenchCommand {
    static let usage = """
        usage: lifeline bench drive [--hours H] [--engine NAME]

        Runs one scenario of H hours (default 24; at most \(hoursMax)): the app opened at the
        start and left after a minute while the device drives at 13.9 m/s to the end, Always
        authorization, the measured policy, seed 1, for the engine NAME (default session).
        Records it as `lifeline fuzz` records a case (without the trace, and without the
        engine's narration, which only a timeline reads), checks every built-in invariant, and
        prints
        'hours=H deliveries=N violations=V wall_s=S peak_rss_mb=M' (Linux VmHWM; "unavailable"
        elsewhere). A scenario file's horizon is capped at \(Scenario.horizonMax); this one is
        not, to measure how time and memory grow beyond it.
        """

    /// The longest drive: four weeks.
    static let hoursMax = 672

    static func run(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let hours = try reader.integer("--hours", in: 1...hoursMax, default: 24)
        let engine = try FuzzCommand.engine(
            named: try reader.text("--engine") ?? "session", reader.engines)
        try reader.finish()
        let scenario = Scenario.build {
            $0.engine = ScenarioEngine(engine)
            $0.authorization = .always
            $0.horizon = .hours(Int64(hours))
            $0.drive(.hours(Int64(hours)), speed: 13.9)
            $0.at(.zero, .open)
            $0.at(.minutes(1), .leave)
        }
        let started = WallClock.seconds()
        let record = try ScenarioFiles.record(
            scenario, path: "(bench drive)", keepsNarration: false)
        let violations = record.violations(of: Invariant.builtIn)
        let wall = WallClock.seconds() - started
        let peak =
            ProcessMemory.peakResidentBytes().map { format2($0, divisor: 1_048_576) }
            ?? "unavailable"
        output.standard(
            "hours=\(hours) deliveries=\(record.digest.deliveryCount) "
                + "violations=\(violations.count) wall_s=\(format6(wall)) peak_rss_mb=\(peak)")
        return 0
    }
}
