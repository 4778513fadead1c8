// The fuzzer's throughput (layer 5), for `lifeline bench fuzz`: scenarios generated, run and
// checked per second on the fuzzer's own workers, with the time of each phase.
import Engines
import Exploration
import Invariants
import Scenarios
import Simulation

/// Runs the fuzzer's case loop for a while with no corpus and no shrinking, and measures it:
/// how many scenarios were generated, run and checked, how long each phase took on the
/// workers, what one scenario costs in deliveries and simulated time, and the distinct
/// lifecycle states reached. A failure is counted and the run goes on.
///
/// Cases are committed in index order as in `Fuzzer.fuzz`, so the counts are a prefix of the
/// case indices; only how far the prefix goes depends on the machine.
package struct FuzzThroughput: Sendable {
    /// The engine under test.
    package var engine: EngineChoice
    /// The scenarios generated (`ScenarioGenerator.benchmark` for the workload).
    package var generator: ScenarioGenerator
    package var seed: UInt64 = 1
    /// Worker threads, at least 1.
    package var jobCount = 1
    /// Wall-clock seconds to run for.
    package var secondsMax = 10.0
    /// Cases at most (`Int.max`: only the time bounds it).
    package var caseCount = Int.max
    package var invariants = Invariant.builtIn

    package init(engine: EngineChoice, generator: ScenarioGenerator) {
        self.engine = engine
        self.generator = generator
    }

    /// What a run measured. Phase times are summed over workers (CPU-side seconds, not wall).
    package struct Result: Sendable {
        /// Cases generated, the invalid ones included.
        package var generated = 0
        /// Valid cases run and checked.
        package var checked = 0
        package var failures = 0
        package var wallSeconds = 0.0
        package var generateSeconds = 0.0
        package var runSeconds = 0.0
        package var checkSeconds = 0.0
        /// Deliveries (kernel events) over all checked runs.
        package var deliveries = 0
        /// Simulated time over all checked runs.
        package var simulatedNanoseconds: Int64 = 0
        /// External events over all checked scenarios, the opening one included.
        package var externalEvents = 0
        package var distinctStates = 0
    }

    /// One case as a worker measured it.
    struct Sample: Sendable {
        var valid: Bool
        var failed = false
        var generateSeconds = 0.0
        var runSeconds = 0.0
        var checkSeconds = 0.0
        var deliveries = 0
        var simulatedNanoseconds: Int64 = 0
        var externalEvents = 0
        var path = LifecyclePath()
    }

    /// Runs the benchmark.
    package func run() -> Result {
        precondition(jobCount >= 1 && secondsMax >= 0, "at least one worker, a time bound")
        let benchmark = self
        var result = Result()
        var states = LifecycleStates()
        let started = WallClock.seconds()
        let workers = CaseWorkers<Sample>(positionCount: caseCount, jobCount: jobCount)
        _ = try? workers.run(
            shouldStop: { WallClock.seconds() - started > benchmark.secondsMax },
            makeWork: {
                let scenarios = benchmark.generator.scenarios
                return { caseIndex in (benchmark.sample(caseIndex, scenarios), false) }
            },
            commit: { _, sample in
                result.generated += 1
                result.generateSeconds += sample.generateSeconds
                guard sample.valid else { return true }
                result.checked += 1
                result.failures += sample.failed ? 1 : 0
                result.runSeconds += sample.runSeconds
                result.checkSeconds += sample.checkSeconds
                result.deliveries += sample.deliveries
                result.simulatedNanoseconds += sample.simulatedNanoseconds
                result.externalEvents += sample.externalEvents
                states.add(sample.path)
                return true
            })
        result.wallSeconds = WallClock.seconds() - started
        result.distinctStates = states.count
        return result
    }

    /// Generates, runs and checks case `caseIndex`, timing each phase.
    func sample(_ caseIndex: Int, _ scenarios: Gen<Scenario>) -> Sample {
        let begun = WallClock.seconds()
        let testCase = TestCase(
            seed: Seed(seed).derive(UInt64(caseIndex)).value, choiceCountMax: Fuzzer.choiceCountMax)
        let scenario = scenarios.generate(testCase)
        let generated = WallClock.seconds()
        var sample = Sample(valid: testCase.status == .valid, generateSeconds: generated - begun)
        guard sample.valid else { return sample }
        guard let record = try? scenario.record(keepsNarration: false) else {
            sample.valid = false  // a scenario the world cannot make is not a case
            return sample
        }
        let ran = WallClock.seconds()
        let violations = record.violations(of: invariants)
        sample.path = LifecyclePath(record)
        let checked = WallClock.seconds()
        sample.failed = !violations.isEmpty
        sample.runSeconds = ran - generated
        sample.checkSeconds = checked - ran
        sample.deliveries = record.digest.deliveryCount
        sample.simulatedNanoseconds = scenario.horizon.nanoseconds
        sample.externalEvents = scenario.events.count
        return sample
    }
}
