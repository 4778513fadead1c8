// `lifeline engines`: every engine a scenario or --engine accepts, correct and mutant.
import Foundation
import Testing

@testable import LifelineCommands

@Suite("Engines command")
struct EnginesCommandTests {
    @Test(
        "engines --json lists the three correct engines and at least ten mutants, each on a correct base"
    )
    func listsEngines() throws {
        let result = runTool(["engines", "--json"])
        #expect(result.code == 0)
        let rows = try #require(
            JSONSerialization.jsonObject(with: Data(result.standard.utf8)) as? [[String: String]])
        let correct = rows.filter { $0["kind"] == "correct" }.compactMap { $0["name"] }
        #expect(correct == ["location-runtime", "session", "standard"])
        let mutants = rows.filter { $0["kind"] == "mutant" }
        #expect(mutants.count >= 10)
        #expect(mutants.allSatisfy { correct.contains($0["base"] ?? "") })
        #expect(Set(rows.compactMap { $0["name"] }).count == rows.count, "names are unique")
    }

    @Test("engines takes no other option: exit 2")
    func badOption() {
        let result = runTool(["engines", "--all"])
        #expect(result.code == 2)
        #expect(result.error.contains("--all"))
    }
}
