import ExplorationTesting
// The runner: passing, failing with a shrunk value and token, giving up on a filter that
// rejects everything; replay tokens; the Swift Testing entry point.
import Testing

@testable import Exploration

@Suite("Explorer")
struct ExplorerTests {
    @Test("a property that holds passes every case")
    func passes() {
        let result = Explorer.explore(
            Gen.array(of: Gen<Int>.int), settings: ExplorationSettings(seed: 1, caseCount: 200)
        ) {
            try check(Array($0.reversed().reversed()) == $0)
        }
        #expect(result.failure == nil)
        #expect(result.validCaseCount == 200)
    }

    @Test("a failure comes back shrunk, with its message, seed, counts and token")
    func fails() throws {
        let result = Explorer.explore(
            Gen.array(of: Gen<Int>.int(in: 0...1000)), settings: ExplorationSettings(seed: 7)
        ) { list in
            try check(list.reduce(0, +) < 1500, "sum \(list.reduce(0, +))")
        }
        let failure = try #require(result.failure)
        #expect(failure.value == [500, 1000], "shortlex: the first element as small as it can be")
        #expect(failure.message == "sum 1500")
        #expect(failure.shrinkEvaluations > 0 && failure.shrinkSteps > 0)
        #expect(
            isSimpler(failure.shrunkChoices, than: failure.originalChoices)
                || failure.shrunkChoices == failure.originalChoices)
        let replay = Explorer.replay(failure.replayToken, Gen.array(of: Gen<Int>.int(in: 0...1000)))
        { list in
            try check(list.reduce(0, +) < 1500)
        }
        #expect(replay.value == [500, 1000] && replay.failure != nil)
    }

    @Test("the same seed gives the same failure; another seed explores other cases")
    func seeds() {
        func run(_ seed: UInt64) -> [UInt64]? {
            Explorer.explore(Gen.array(of: Gen<Int>.int), settings: ExplorationSettings(seed: seed))
            { list in
                try check(list.count < 5)
            }.failure?.originalChoices
        }
        #expect(run(3) == run(3))
        #expect(run(3) != run(4))
    }

    @Test("a filter that rejects almost everything makes the run give up with a clear reason")
    func givesUp() {
        var settings = ExplorationSettings(seed: 1, caseCount: 100)
        settings.invalidCaseMax = 50
        let impossible = Gen<Int>.int(in: 0...1000).filter("an impossible filter", attemptMax: 3) {
            $0 > 5000
        }
        let result = Explorer.explore(impossible, settings: settings) { _ in }
        guard case .gaveUp(let reason) = result.status else {
            Issue.record("expected the run to give up")
            return
        }
        #expect(reason.contains("51 cases were rejected"))
        #expect(reason.contains("an impossible filter rejected 3 values in a row"))
    }

    @Test("assume discards cases without failing them")
    func assumptions() {
        let result = Explorer.explore(
            Gen<Int>.int(in: 0...100), settings: ExplorationSettings(seed: 2)
        ) { value in
            try assume(value % 2 == 0)
            try check(value % 2 == 0)
        }
        #expect(result.failure == nil)
        #expect(result.invalidCaseCount > 0)
    }

    @Test(
        "replay tokens round-trip, and malformed ones are errors",
        arguments: [
            [], [0], [1, 0, 1, 1, 0], [UInt64.max, 0, 127, 128, 16_383, 16_384],
        ] as [[UInt64]])
    func tokens(choices: [UInt64]) throws {
        let token = ReplayToken(choices: choices)
        #expect(token.text.hasPrefix("lifeline1:"))
        #expect(try ReplayToken(parsing: token.text).choices == choices)
        #expect(try ReplayToken(parsing: "  " + token.text + "\n").choices == choices)
    }

    @Test(
        "malformed replay tokens are errors that say why",
        arguments: [
            ("AQAB", "start with 'lifeline1:'"), ("lifeline1:A*B", "not base64url"),
            ("lifeline1:gA", "ends in the middle of a choice"),
            ("lifeline1:____________fw", "more than 64 bits"),
        ])
    func badTokens(text: String, reason: String) {
        #expect {
            try ReplayToken(parsing: text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test("propertyCheck records an issue with the shrunk value and the replay command")
    func swiftTestingIntegration() {
        withKnownIssue {
            propertyCheck(in: Self.self, Gen<Int>.int(in: 0...100), seed: 5) { value in
                try check(value < 42, "too big")
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("property failed: too big") && text.contains("shrunk value: 42")
                && text.contains("replay: LIFELINE_REPLAY=lifeline1:")
                && text.contains("--filter 'ExplorerTests/swiftTestingIntegration'")
        }
    }

    @Test("a passing propertyCheck records nothing and reports its cases")
    func swiftTestingPass() {
        let result = propertyCheck(in: Self.self, Gen<Int>.int(in: 0...100), cases: 50) { value in
            try check(value <= 100)
        }
        #expect(result?.validCaseCount == 50)
    }
}

@Suite("Budgets")
struct BudgetTests {
    @Test("a zero shrink time budget stops shrinking at once, and says so")
    func shrinkTimeBudget() throws {
        var settings = ExplorationSettings(seed: 7)
        settings.shrinkSecondsMax = 0
        let result = Explorer.explore(Gen.array(of: Gen<Int>.int(in: 0...1000)), settings: settings)
        { list in
            try check(list.reduce(0, +) < 1500)
        }
        let failure = try #require(result.failure)
        #expect(failure.shrinkBudgetExhausted && failure.shrinkEvaluations == 0)
        #expect(failure.shrunkChoices == failure.originalChoices)
    }

    @Test("an evaluation budget bounds shrinking's worst case and the report says where it stopped")
    func shrinkEvaluationBudget() throws {
        // Two times whose gap must stay in 1...60: before shiftGroups, tens of thousands of
        // evaluations from a far start. Here a budget of 3 stops it with a failing value.
        let times = Gen.zip(Gen<Int>.int(in: 0...86_400), Gen<Int>.int(in: 0...86_400))
        let gapInWindow: ((Int, Int)) -> Bool = { (1...60).contains($0.1 - $0.0) }
        var settings = ExplorationSettings(seed: 11, caseCount: 1_000)
        settings.shrinkEvaluationMax = 3
        let result = Explorer.explore(times, settings: settings) { pair in
            try check(!gapInWindow(pair))
        }
        let failure = try #require(result.failure)
        #expect(failure.shrinkBudgetExhausted)
        #expect(failure.shrinkEvaluations == 3)
        #expect(gapInWindow(failure.value), "what it reports still fails")
        let report = failureReport(failure, seed: 11, testID: "budget")
        #expect(report.contains("shrinking stopped at its budget"))
        settings.shrinkEvaluationMax = 10_000
        let unbounded = Explorer.explore(times, settings: settings) { try check(!gapInWindow($0)) }
        let fixedPoint = try #require(unbounded.failure)
        #expect(!fixedPoint.shrinkBudgetExhausted && fixedPoint.value == (0, 1))
        #expect(!failureReport(fixedPoint, seed: 11, testID: "budget").contains("stopped"))
    }
}
