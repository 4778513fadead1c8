// `lifeline bench fuzz`: the fuzzer's throughput on the workload (an hour's route with
// a drive and three lifecycle events), on J workers.
import Engines
import Foundation
import Fuzzing

enum FuzzBenchCommand {
    static let usage = """
        usage: lifeline bench fuzz [--engine NAME] [--jobs J] [--seconds N] [--cases C]
                                   [--seed S]

        Runs the fuzzer's case loop (generate, run, check every invariant; no corpus, no
        shrinking) for N seconds (default 10), or for the first C cases (the same cases on any
        machine, so a fixed workload for an instruction count: `valgrind --tool=callgrind
        lifeline bench fuzz --jobs 1 --cases 100`), on J workers (default: every core) over scenarios
        of at least one simulated hour with a drive and three lifecycle events besides the
        opening (`ScenarioGenerator.benchmark`), for the engine NAME (default session). Prints
        the workload (deliveries, i.e. kernel events, and external events per scenario), the
        distinct lifecycle states per minute, then per phase the scenarios per second of one
        worker's time (generated, run, checked), and last
        'scenarios=N wall_s=S scenarios_per_s=R' for the whole loop.
        """

    static func run(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let name = try reader.text("--engine") ?? BuiltInEngine.session.rawValue
        let engine = try FuzzCommand.engine(named: name, reader.engines)
        let jobs = try reader.integer(
            "--jobs", in: 1...FuzzCommand.jobCountMax,
            default: min(ProcessInfo.processInfo.activeProcessorCount, FuzzCommand.jobCountMax))
        let seconds = try reader.parsed("--seconds") { text -> Double in
            guard let value = Double(text), value > 0, value.isFinite else {
                throw UsageError("takes a positive number of seconds, not '\(text)'")
            }
            return value
        }
        // 0: not given (the range applies only to a given count).
        let caseCount = try reader.integer("--cases", in: 1...100_000_000, default: 0)
        let cases = caseCount > 0 ? caseCount : nil
        let seed = try reader.seed("--seed", default: 1)
        try reader.finish()
        var benchmark = FuzzThroughput(
            engine: engine, generator: .benchmark(engine: engine))
        benchmark.jobCount = jobs
        // A case count alone bounds the run by the count: every one of the cases runs.
        benchmark.secondsMax = seconds ?? (cases == nil ? 10 : .infinity)
        benchmark.caseCount = cases ?? Int.max
        benchmark.seed = seed
        let result = benchmark.run()
        let checked = max(result.checked, 1)
        output.standard(
            "engine=\(engine.name) workload=hour-drive-3-lifecycle jobs=\(jobs) seed=\(seed) "
                + "generated=\(result.generated) checked=\(result.checked) "
                + "failures=\(result.failures) "
                + "deliveries_per_scenario=\(format2(result.deliveries, divisor: checked)) "
                + "external_events_per_scenario="
                + "\(format2(result.externalEvents, divisor: checked)) "
                + "simulated_min_per_scenario="
                + format2(Double(result.simulatedNanoseconds) / 60e9 / Double(checked))
                + " distinct_states=\(result.distinctStates) states_per_min="
                + format2(Double(result.distinctStates) * 60 / result.wallSeconds))
        output.standard(
            "generated_per_worker_s=\(rate(result.generated, result.generateSeconds)) "
                + "run_per_worker_s=\(rate(result.checked, result.runSeconds)) "
                + "checked_per_worker_s=\(rate(result.checked, result.checkSeconds)) "
                + "generate_share=\(share(result.generateSeconds, result)) "
                + "run_share=\(share(result.runSeconds, result)) "
                + "check_share=\(share(result.checkSeconds, result)) "
                + "deliveries_per_s=\(rate(result.deliveries, result.wallSeconds))")
        output.standard(
            "scenarios=\(result.checked) wall_s=\(format6(result.wallSeconds)) "
                + "scenarios_per_s=\(rate(result.checked, result.wallSeconds))")
        return 0
    }

    static func rate(_ count: Int, _ seconds: Double) -> String {
        seconds > 0 ? format2(Double(count) / seconds) : "0.00"
    }

    /// One phase's share of the three phases' time, in percent.
    static func share(_ seconds: Double, _ result: FuzzThroughput.Result) -> String {
        let total = result.generateSeconds + result.runSeconds + result.checkSeconds
        return total > 0 ? format2(100 * seconds / total) : "0.00"
    }
}
