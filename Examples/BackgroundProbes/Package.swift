// swift-tools-version: 6.0
// Source A's four background probes (docs/sources.md), written as the article writes them,
// run on a simulated device: an example package outside Lifeline's own targets, depending on
// it by path.
import PackageDescription

let package = Package(
    name: "BackgroundProbes",
    dependencies: [.package(name: "Lifeline", path: "../..")],
    targets: [
        .executableTarget(
            name: "background-probes",
            dependencies: [.product(name: "LifelineKit", package: "Lifeline")])
    ],
    swiftLanguageModes: [.v6]
)
