// Running a property over many seeds, with the seed and a replay command on failure.
// LIFELINE_SEED=<n> runs one seed; LIFELINE_CASES=<n> changes how many are run.
import Foundation
import Testing

/// Runs `body` once per seed; a failure is reported with its seed and the command that
/// replays that one seed.
func forEverySeed(
    in suite: Any.Type, function: String = #function, cases defaultCases: Int = 100,
    first: UInt64 = 1, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (UInt64) -> String?
) {
    let testID = "\(suite)/\(function.prefix { $0 != "(" })"
    let environment = ProcessInfo.processInfo.environment
    let seeds: [UInt64]
    if let fixed = environment["LIFELINE_SEED"].flatMap(UInt64.init) {
        seeds = [fixed]
    } else {
        let cases = environment["LIFELINE_CASES"].flatMap(Int.init) ?? defaultCases
        seeds = (0..<UInt64(cases)).map { first + $0 }
    }
    for seed in seeds {
        if let failure = body(seed) {
            Issue.record(
                "\(failure)\nseed: \(seed)\nreplay: LIFELINE_SEED=\(seed) swift test --filter '\(testID)'",
                sourceLocation: sourceLocation)
            return
        }
    }
}
