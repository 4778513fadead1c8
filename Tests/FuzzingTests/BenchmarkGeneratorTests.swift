// The workload of `lifeline bench fuzz`: every scenario has a route of at least an hour with a
// drive and at least three lifecycle events after the opening; the fuzzer's own generator is
// unchanged by the settings that make it.
import Engines
import Exploration
import Scenarios
import Simulation
import Testing
import World

@testable import Fuzzing

@Suite("Benchmark workload")
struct BenchmarkGeneratorTests {
    @Test("every benchmark scenario drives, lasts an hour and has three lifecycle events")
    func benchmarkFloor() {
        let generator = ScenarioGenerator.benchmark(engine: .builtIn(.session)).scenarios
        var valid = 0
        for index in 0..<200 {
            let testCase = TestCase(seed: Seed(9).derive(UInt64(index)).value)
            let scenario = generator.generate(testCase)
            guard testCase.status == .valid else { continue }
            valid += 1
            guard case .segments(_, _, let segments) = scenario.route else {
                Issue.record("a segment route")
                continue
            }
            let routeTime = segments.reduce(VirtualDuration.zero) { $0 + $1.duration }
            #expect(routeTime >= .minutes(60), "case \(index)")
            #expect(segments.contains { $0.kind == .drive }, "case \(index)")
            let lifecycle = scenario.events.dropFirst().filter {
                ScenarioGenerator.isLifecycle($0.event)
            }
            #expect(lifecycle.count >= 3, "case \(index)")
        }
        #expect(valid > 150)
    }

    @Test("the fuzzer's generator draws the same scenarios as before the workload settings")
    func defaultUnchanged() {
        var zeroed = ScenarioGenerator(engine: .builtIn(.session))
        zeroed.routeTimeMin = .zero
        zeroed.lifecycleEventCountMin = 0
        let plain = ScenarioGenerator(engine: .builtIn(.session)).scenarios
        let benchmark = ScenarioGenerator.benchmark(engine: .builtIn(.session)).scenarios
        var differing = 0
        for index in 0..<50 {
            let seed = Seed(1).derive(UInt64(index)).value
            let left = plain.generate(TestCase(seed: seed)).description
            #expect(left == zeroed.scenarios.generate(TestCase(seed: seed)).description)
            if left != benchmark.generate(TestCase(seed: seed)).description { differing += 1 }
        }
        #expect(differing > 25)
    }
}
