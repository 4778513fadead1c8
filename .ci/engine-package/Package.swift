// swift-tools-version: 6.0
// A team's own package that tests its own engine against Lifeline, through its public API
// only. `.ci/run` copies this folder outside the repository, points the dependency at the
// checkout, builds it and runs it: if anything `internal` were needed, it would not compile.
import PackageDescription

let package = Package(
    name: "MyTracker",
    dependencies: [.package(name: "Lifeline", path: "LIFELINE_PATH")],
    targets: [
        // The team's engines, and its own `lifeline` with them in every command.
        .target(
            name: "MyEngines",
            dependencies: [.product(name: "Lifeline", package: "Lifeline")]),
        .executableTarget(
            name: "my-lifeline",
            dependencies: ["MyEngines", .product(name: "LifelineCLI", package: "Lifeline")]),
        .executableTarget(
            name: "MyTrackerCheck",
            dependencies: [.product(name: "Lifeline", package: "Lifeline")]),
        // Examples/DelegateTracker's tracker, with Apple's names, against LifelineKit (`.ci/run`
        // copies its LocationTracker.swift into Sources/AppleShapedCheck first).
        .executableTarget(
            name: "AppleShapedCheck",
            dependencies: [
                .product(name: "LifelineKit", package: "Lifeline"),
                .product(name: "Lifeline", package: "Lifeline"),
            ]),
        // Source A's background probes as the article writes them (`.ci/run` copies
        // Examples/BackgroundProbes' sources into Sources/BackgroundProbesCheck first).
        .executableTarget(
            name: "BackgroundProbesCheck",
            dependencies: [.product(name: "LifelineKit", package: "Lifeline")]),
        // Source C's live-updates code, a CLMonitor and a CLServiceSession as their sources
        // write them, in Swift 5 mode as written (`.ci/run` copies Examples/SourceShapes in).
        .target(
            name: "SourceShapesCheck",
            dependencies: [.product(name: "LifelineKit", package: "Lifeline")],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // The engine fuzzed inside `swift test` with `fuzzLifecycle`.
        // Its one dependency, `LifelineTesting`, re-exports what the tests import.
        .testTarget(
            name: "MyTrackerTests",
            dependencies: [.product(name: "LifelineTesting", package: "Lifeline")]),
    ],
    swiftLanguageModes: [.v6]
)
