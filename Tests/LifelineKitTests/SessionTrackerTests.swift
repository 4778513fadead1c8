// The session engine rewritten on LifelineKit (`session-kit`, KitEngines) against the engine it
// ports (`session`): the fuzzer finds the port correct, the session engine's mutants planted in
// it through the same seams are caught, and on the fuzzer's scenarios it stores and uploads
// what the session engine does.
import Engines
import Exploration
import Foundation
import Fuzzing
import FuzzingTesting
import KitEngines
import Scenarios
import Simulation
import Testing
import World

@Suite("KitEngines: the session engine on LifelineKit")
struct SessionTrackerTests {
    /// The fuzzer's scenarios for the session engine (`lifeline fuzz --seed 1`'s first cases).
    static func scenarios(count: Int) -> [Scenario] {
        let generator = ScenarioGenerator(engine: .builtIn(.session))
        return (0..<count).compactMap { index in
            let testCase = TestCase(seed: Seed(1).derive(UInt64(index)).value)
            let scenario = generator.scenarios.generate(testCase)
            return testCase.status == .valid ? scenario : nil
        }
    }

    /// What a run leaves: its trace (`SessionTraceLines`), its disk and server rows, and the
    /// events told.
    struct SessionRun {
        var trace: [String]
        var stored: [String]
        var accepted: [String]
        var events: [[String]]

        /// The run of `scenario` by `engine`, in FIFO order when `fifo`, else in the
        /// scenario's own.
        init(_ scenario: Scenario, engine: EngineChoice, fifo: Bool) throws {
            var scenario = scenario
            if fifo { scenario.ordering = .fifo }
            scenario.engine.name = engine
            let sink = SessionTraceLines(kit: engine != .builtIn(.session))
            let run = try scenario.run(trace: sink)
            trace = sink.lines
            stored = run.world.storedRows.map(\.description)
            accepted = run.world.server.acceptedRows.map(\.description)
            events = run.engines.map { $0.events.map(\.description) }
        }
    }

    /// How many of the fuzzer's first 60 scenarios leave the same of each.
    struct Agreement: CustomStringConvertible {
        var scenarios = 0
        var stored = 0
        var accepted = 0
        var events = 0
        var trace = 0
        var description: String {
            "\(scenarios) scenarios: stored \(stored), server \(accepted), events \(events), "
                + "trace \(trace)"
        }
    }

    static func agreement(fifo: Bool, count: Int) throws -> Agreement {
        var agreement = Agreement()
        for scenario in Self.scenarios(count: count) {
            let session = try SessionRun(scenario, engine: .builtIn(.session), fifo: fifo)
            let kit = try SessionRun(scenario, engine: .custom(.sessionKit), fifo: fifo)
            agreement.scenarios += 1
            if kit.stored == session.stored { agreement.stored += 1 }
            if kit.accepted == session.accepted { agreement.accepted += 1 }
            if kit.events == session.events { agreement.events += 1 }
            if kit.trace == session.trace { agreement.trace += 1 }
        }
        return agreement
    }

    @Test(
        "on 10 fuzz scenarios in FIFO order, session-kit stores and uploads what session does, with the same world calls but LifelineKit's additions and the order of a batch"
    )
    func sameRunsAsSession() throws {
        let agreement = try Self.agreement(fifo: true, count: 10)
        #expect(agreement.scenarios >= 8)
        #expect(agreement.stored == agreement.scenarios, "\(agreement)")
        #expect(agreement.accepted == agreement.scenarios, "\(agreement)")
        // Scenario 0 makes a launch before the first unlock, where the port makes its manager
        // (`session` waits for the unlock): its trace has that one more request.
        #expect(agreement.trace == agreement.scenarios - 1, "\(agreement)")
    }

    @Test(
        "on the first 10 fuzz scenarios under their own orderings, session-kit mostly stores what session does (figures printed)"
    )
    func agreementUnderOwnOrderings() throws {
        // 10 here (FIFO is `sameRunsAsSession`'s), two runs of a second each in a debug build;
        // docs/studies/kit-engines.md counts 60:
        // LIFELINE_CASES=60 swift test --filter agreementUnderOwnOrderings.
        let count = ProcessInfo.processInfo.environment["LIFELINE_CASES"].flatMap(Int.init) ?? 10
        let own = try Self.agreement(fifo: false, count: count)
        print("session-kit against session, own orderings: \(own)")
        #expect(own.stored >= own.scenarios * 3 / 4)
    }

    @Test(
        "unnormalised, a session-kit run's trace has more deliveries than session's (LifelineKit's additions)"
    )
    func kitAddsCalls() throws {
        let scenario = try #require(Self.scenarios(count: 1).first)
        let session = try SessionRun(scenario, engine: .builtIn(.session), fifo: true)
        var kit = scenario
        kit.ordering = .fifo
        kit.engine.name = .custom(.sessionKit)
        let raw = TraceLines()
        _ = try kit.run(trace: raw)
        #expect(raw.lines.count > session.trace.count)
    }

    @Test("fuzzed over generated lifecycles, session-kit holds every built-in invariant")
    func fuzzed() {
        // 20 cases here (LIFELINE_CASES raises it): standard-kit's 150 in .ci/run search the
        // same LifelineKit paths.
        let report = fuzzLifecycle(of: .custom(.sessionKit), seed: 1, cases: 20)
        #expect(report?.failure == nil)
        let budget =
            ProcessInfo.processInfo.environment["LIFELINE_CASES"].flatMap(Int.init) ?? 20
        #expect(report?.cases == budget, "every case of the budget ran")
    }

    @Test("with its reading loop on the main actor, session-kit holds every built-in invariant")
    func fuzzedOnTheMainActor() {
        let report = fuzzLifecycle(of: .custom(.sessionKitMainActor), seed: 1, cases: 10)
        #expect(report?.failure == nil)
    }

    /// The session mutants planted in `session-kit` (`CustomEngine.sessionKitMutants`), by the
    /// name of the mutant they copy.
    static func kitMutant(_ name: String) -> CustomEngine {
        CustomEngine.sessionKitMutants.first { $0.name == name + "-kit" }!
    }

    @Test(
        "two session mutants planted in session-kit are found by the fuzzer, failing the invariant their corpus entries fail",
        // Each is found within its first 10 cases. forgets-enabled-flag and
        // restore-after-slow-work, found as quickly, are left to `corpusEntriesFail`, with the
        // other four.
        arguments: [
            ("stores-nothing", "bounded-gaps"),
            ("stop-on-terminate-after-resume", "configuration-honoured"),
        ])
    func mutantsCaught(mutant: String, invariant: String) throws {
        let report = try plantedMistakeSearch(Self.kitMutant(mutant), cases: 400)
        #expect(report.failure?.invariant == invariant)
    }

    /// The repository's corpus folder, from this file's path.
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Corpus")

    @Test(
        "each session mutant's corpus entry fails the same invariant on its session-kit copy, and session-kit passes it",
        arguments: CustomEngine.sessionKitMutants.map { String($0.name.dropLast(4)) })
    func corpusEntriesFail(mutant: String) throws {
        let folder = Self.corpus.appendingPathComponent(mutant)
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".scenario") }.sorted()
        #expect(!entries.isEmpty)
        for entry in entries {
            let name = entry.dropLast(".scenario".count)
            let invariant = String(name[..<(name.lastIndex(of: "-") ?? name.endIndex)])
            var scenario = try Scenario(contentsOfFile: folder.appendingPathComponent(entry).path)
            scenario.engine.name = .custom(Self.kitMutant(mutant))
            let broken = try scenario.record().violations().map(\.invariant)
            #expect(broken.contains(invariant), "\(entry): \(broken)")
            scenario.engine.name = .custom(.sessionKit)
            #expect(try scenario.record().violations().isEmpty, "\(entry) on session-kit")
        }
    }
}

/// Every delivery of a run as a line, normalised so that a `session-kit` run compares with a
/// `session` run: without what LifelineKit adds (the manager's first authorization callback, a
/// run-loop timer of zero delay, handle #2 of every process, `ProcessScope.announce`;
/// `UIApplication`'s `watch background time` and the system's `background time` answers; each
/// region's `confirm monitoring region` and `monitoring … started`, R-G4), with every object
/// handle `#n` written `#` (the port makes its manager first, at launch, so the handles
/// differ), with the requests of one batch sorted (the port's live updates start when its
/// reading task first runs, after the callback that made it, whose requests go first), and
/// without `manager #n delegate set` (the port's manager always has its delegate; `session`
/// sets none on the manager it makes only to clear its registrations).
final class SessionTraceLines: TraceSink {
    private let kit: Bool
    private(set) var lines: [String] = []

    init(kit: Bool) { self.kit = kit }

    func record(instant: Instant, actor: ActorID, message: WorldMessage) {
        var text = message.description
        if kit {
            if text.contains("app timer timer #2 due (process ")
                || text.hasPrefix("background time ")
                || text.contains("requests [watch background time] (process ")
                || (text.contains(" monitoring ") && text.contains(" started (process "))
            {
                return
            }
            text = text.replacingOccurrences(of: "watch background time; ", with: "")
                .replacingOccurrences(of: "; watch background time", with: "")
        }
        var requests = text.hasPrefix("requests [") ? requestItems(text) : nil
        if kit { requests?.items.removeAll { $0.contains(" confirm monitoring region ") } }
        // `session` sets no delegate on the manager it makes only to clear registrations.
        requests?.items.removeAll { $0.hasPrefix("manager #") && $0.hasSuffix(" delegate set") }
        if let requests {
            text =
                "requests [" + requests.items.map(withoutHandles).sorted().joined(separator: "; ")
                + "]" + requests.rest
        }
        lines.append(
            TraceHash.line(instant: instant, actor: actor, message: withoutHandles(text)))
    }

    /// The items of `requests [a; b] (process n)`, and what follows the list.
    private func requestItems(_ text: String) -> (items: [String], rest: String)? {
        guard let close = text.lastIndex(of: "]") else { return nil }
        let list = text[text.index(text.startIndex, offsetBy: 10)..<close]
        return (list.components(separatedBy: "; "), String(text[text.index(after: close)...]))
    }

    /// `text` with every `#` followed by digits written `#`.
    private func withoutHandles(_ text: String) -> String {
        var result = ""
        var inHandle = false
        for character in text {
            if inHandle, character.isASCII, character.isNumber { continue }
            inHandle = character == "#"
            result.append(character)
        }
        return result
    }
}
