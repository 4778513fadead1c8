// The runs the picture tests draw: docs/pictures.md's force-quit scenario (docs/), a failing corpus
// entry, and a long drive, each recorded with the built-in invariants' violations.
import Foundation
import Fuzzing
import Invariants
import Pictures
import Scenarios

enum PictureRuns {
    /// The repository's root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The scenario file at `relativePath` from the root.
    static func scenario(_ relativePath: String) throws -> Scenario {
        try Scenario(contentsOfFile: root.appendingPathComponent(relativePath).path)
    }

    /// `scenario` run and drawn with the built-in invariants' violations.
    static func picture(_ scenario: Scenario) throws -> RunPicture {
        let record = try scenario.record(keepsTrace: true)
        return RunPicture(record, violations: Invariant.builtIn.flatMap { $0.check(record) })
    }

    /// LifecycleMatrix's force-quit scenario for the session engine, as docs/pictures.md draws it.
    static let forceQuitPath = "docs/force-quit-session.scenario"

    /// A corpus entry the `no-region-on-terminate` mutant fails (`bounded-gaps`).
    static let failingPath = "Corpus/no-region-on-terminate/bounded-gaps-c0d1d1891f50a956.scenario"

    /// The session engine on a drive of `hours`, left in the background: one fix a second,
    /// far more than the timeline's bins.
    static func longDrive(hours: Int) throws -> Scenario {
        try Scenario(
            parsing: """
                engine session
                authorization always
                horizon \(hours)h
                route
                  drive \(hours)h at 13.9 m/s
                events
                  0s open
                  1m leave
                """, path: "long-drive.scenario")
    }
}
