// `lifeline diff`: a force-quit while driving changes outcome between iOS18 and iOS26 (R-B5),
// and nothing changes between a policy and itself.
import Foundation
import Testing

@testable import LifelineCommands

@Suite("Diff command")
struct DiffCommandTests {
    static let forceQuit = """
        # the app swiped away while driving
        engine standard
        authorization always
        horizon 30m
        route
          drive 30m at 13.9 m/s
        events
          0s open
          1m leave
          5m force-quit
        end
        """

    @Test("R-B5: iOS18 → iOS26 lists the standard engine's force-quit, where its traces part")
    func forceQuitChanges() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("force-quit.scenario", Self.forceQuit)
        let result = runTool([
            "diff", "--policy", "iOS18", "--policy", "iOS26", "--scenarios", folder.path,
            "--engine", "standard", "--jobs", "1",
        ])
        #expect(result.code == 1, "a changed outcome exits 1, as diff(1) does: \(result.error)")
        #expect(result.standard.contains("iOS18 → iOS26: 1 of 1 run changes its outcome"))
        #expect(result.standard.contains("standard  \(path)"))
        #expect(result.standard.contains("fixes stored: "))
        #expect(result.standard.contains("traces part at delivery"))
        #expect(
            result.standard.contains("iOS26: 00:06:03.971 app no relaunch for significant-change"))
    }

    @Test("a policy against itself changes nothing")
    func sameNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("force-quit.scenario", Self.forceQuit)
        let result = runTool([
            "diff", "--policy", "iOS26", "--policy", "iOS26", "--scenarios", folder.path,
            "--jobs", "2",
        ])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.standard == "iOS26 → iOS26: 0 of 3 runs change their outcome\n")
    }

    @Test("diff needs two policies")
    func twoPolicies() {
        let result = runTool(["diff", "--policy", "iOS26"])
        #expect(result.code == 2)
        #expect(result.error.contains("diff needs two policies"))
    }
}
