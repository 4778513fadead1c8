// The app's profile says whether it uploads (`AppProfile.uploads`): the fuzzer's settings for
// an app that uploads nothing leave `uploaded-once` out (as `fuzzLifecycle` and `lifeline
// fuzz` start from them), so a tracker that keeps its data on the phone fuzzes clean, while the
// same tracker declared as uploading fails it.
import Engines
import Invariants
import Testing

@testable import Fuzzing

@Suite("Uploads declared in the profile")
struct UploadsDeclarationTests {
    static func report(_ uploads: AppProfile.Uploads) throws -> FuzzReport {
        var settings = FuzzSettings(engine: .custom(.phoneOnly(uploads: uploads)))
        settings.caseCount = 30
        settings.explainRunMax = 0
        return try Fuzzer.fuzz(settings)
    }

    @Test("a tracker declaring no uploads is not judged by uploaded-once, and passes")
    func noUploadsDeclared() throws {
        let settings = FuzzSettings(engine: .custom(.phoneOnly(uploads: .nothing)))
        #expect(!settings.invariants.map(\.name).contains("uploaded-once"))
        #expect(settings.invariants.count == Invariant.builtIn.count - 1)
        let report = try Self.report(.nothing)
        #expect(report.failure == nil, "\(report.failure?.story ?? "")")
        #expect(report.cases == 30)
    }

    @Test("the same tracker declared as uploading fails uploaded-once")
    func uploadsDeclared() throws {
        let report = try Self.report(.toServer)
        #expect(report.failure?.invariant == "uploaded-once")
    }

    @Test("--only and --skip select by name, after the profile; unknown names are refused")
    func selection() throws {
        let profile = AppProfile()
        let only = try InvariantSelection(only: ["causality, bounded-gaps"], skip: [])
        #expect(
            only.applied(to: Invariant.builtIn, profile: profile).map(\.name)
                == ["bounded-gaps", "causality"])
        let skip = try InvariantSelection(only: [], skip: ["causality"])
        #expect(
            !skip.applied(to: Invariant.builtIn, profile: profile).contains {
                $0.name == "causality"
            })
        #expect(throws: InvariantSelection.UnknownName(name: "no-hang")) {
            try InvariantSelection(only: ["no-hang"], skip: [])
        }
    }
}
