// The invariants judge what an engine did, not what it says (issue 21): the same generated
// scenarios run with an engine and with the same engine silenced (`SilentEngine`, which tells no
// `TrackingEvent`) meet exactly the same violations, and the planted bugs are caught at the same
// case by both.
import EngineMutants
import Engines
import Foundation
import Invariants
import Scenarios
import Simulation
import Testing
import World

@testable import Fuzzing

@Suite("Silent engines are judged as narrating ones")
struct SilentEngineTests {
    /// The planted bugs of the table in the README and docs/fuzzing.md, each in an otherwise
    /// correct engine, with the case the table says it is caught at.
    static let plantedBugs: [Mutant: Int] = [
        .storesNothing: 0,
        .fixAcknowledgedBeforeCommit: 0,
        .forgetsEnabledFlag: 0,
        .retryWithoutIdempotency: 4,
    ]

    /// Case `index` of `lifeline fuzz --engine <engine> --seed <seed>`.
    static func scenario(_ engine: EngineChoice, seed: UInt64, index: Int) -> Scenario {
        var settings = FuzzSettings(engine: engine)
        settings.seed = seed
        return settings.generator.scenarios.generate(
            Fuzzer.generatedCase(index, settings: settings))
    }

    /// The violations of the built-in rules when `scenario` runs with its own engine, or
    /// with that engine silenced.
    static func violations(_ scenario: Scenario, silenced: Bool) throws -> [String] {
        let engine = scenario.engine
        let record = RunRecord.run(
            configuration: try scenario.worldConfiguration(),
            actions: scenario.events.map { ScheduledAction(.start + $0.at, $0.event) },
            horizon: .start + scenario.horizon, launchRules: engine.launchRules
        ) {
            let made = engine.make()
            return silenced ? SilentEngine(made) : made
        }
        if silenced { #expect(record.engineEvents.isEmpty, "a silent engine tells nothing") }
        return record.violations().map(\.description)
    }

    @Test(
        "every case of every engine meets the same violations silenced",
        arguments: EngineChoice.all)
    func sameVerdicts(_ engine: EngineChoice) throws {
        let seed: UInt64 = 1
        // Three cases of each of the twenty engines, each run twice (eight with LIFELINE_CASES
        // set): the planted bugs below add the cases up to the one that catches each.
        let cases = ProcessInfo.processInfo.environment["LIFELINE_CASES"] == nil ? 3 : 8
        for index in 0..<cases {
            let scenario = Self.scenario(engine, seed: seed, index: index)
            let narrating = try Self.violations(scenario, silenced: false)
            let silent = try Self.violations(scenario, silenced: true)
            #expect(
                narrating == silent,
                "\(engine) case \(index); replay: lifeline fuzz --engine \(engine) --seed \(seed)")
        }
    }

    @Test(
        "a planted bug is caught at the same case, narrating or silent",
        arguments: plantedBugs.keys.sorted { $0.rawValue < $1.rawValue })
    func plantedBugCaughtBothWays(_ mutant: Mutant) throws {
        let seed: UInt64 = 1
        var caughtAt: Int?
        for index in 0..<60 {
            let scenario = Self.scenario(.mutant(mutant), seed: seed, index: index)
            let narrating = try Self.violations(scenario, silenced: false)
            let silent = try Self.violations(scenario, silenced: true)
            #expect(narrating == silent, "\(mutant) case \(index)")
            if !narrating.isEmpty {
                caughtAt = index
                break
            }
        }
        #expect(caughtAt == Self.plantedBugs[mutant], "\(mutant): the tables' case, seed \(seed)")
    }
}
