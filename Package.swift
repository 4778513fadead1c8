// swift-tools-version: 6.0
// Lifeline: a deterministic discrete-event simulation of how iOS treats a location-tracking app
// across its lifecycle, and a property-based explorer that finds where the app loses data.
// No package dependencies: Foundation and Swift Testing only.
import PackageDescription

let package = Package(
    name: "Lifeline",
    products: [
        .executable(name: "lifeline", targets: ["lifeline"]),
        // What a team's engines, tools and tests use besides Apple's shapes, in one import
        // (`import Lifeline`: the kernel, the world and its engine API, the engines, scenarios,
        // invariants, the fuzzer, pictures; see Sources/Lifeline). Every other target is
        // internal to this package.
        .library(name: "Lifeline", targets: ["Lifeline"]),
        // Core Location-, UIKit- and BackgroundTasks-shaped types with Apple's names, over the
        // world's engine API: a team's tracker compiles with only its imports changed.
        .library(name: "LifelineKit", targets: ["LifelineKit"]),
        // What a team's own tests import: `Lifeline`, LifelineKit and `fuzzLifecycle`.
        .library(name: "LifelineTesting", targets: ["LifelineTesting"]),
        // A team's own `lifeline` with its engines in every command:
        // `LifelineCLI.main(engines: [mine])` (README, "Checking your own tracker").
        .library(name: "LifelineCLI", targets: ["LifelineCLI"]),
    ],
    targets: [
        // Layer 1: the discrete-event kernel (virtual time, scheduler, actors, ordering, trace,
        // seeded randomness). Imports Foundation only.
        .target(name: "Simulation"),
        // Layer 2: the property-based exploration engine (choice sequences, generators,
        // shrinker, runner, corpus). Knows nothing of iOS.
        .target(name: "Exploration", dependencies: ["Simulation"]),
        // The file formats the world reads (GPX routes, flat JSON objects for policy files).
        // Imports Foundation only; GPX is read by its own streaming tokenizer, not XMLParser.
        .target(name: "Formats"),
        // Swift concurrency in virtual time (docs/concurrency.md): executors installed through
        // the runtime's executor factory, and the process's clock functions interposed (C).
        .target(name: "CVirtualClock"),
        .target(name: "VirtualConcurrency", dependencies: ["CVirtualClock"]),
        // Layer 3: iOS as actors on the kernel (device, operating system, location daemon).
        .target(name: "World", dependencies: ["Simulation", "Formats", "VirtualConcurrency"]),
        // The Swift Testing entry point of the explorer (`propertyCheck` inside `@Test`).
        .target(name: "ExplorationTesting", dependencies: ["Exploration", "Simulation"]),
        // Layer 4: the built-in app engines under test (LocationRuntime, the session engine, the
        // standard engine), written only against World's public API, and the lifecycle matrix.
        .target(name: "Engines", dependencies: ["Simulation", "Formats", "World"]),
        // Layer 4 (part): the test mutants, each a built-in engine with one real mistake,
        // built from its reference engine through the seams it exposes to the package; and the
        // list of every engine by name (`EngineChoice.all`).
        .target(name: "EngineMutants", dependencies: ["Simulation", "World", "Engines"]),
        // Source A's experiments (docs/sources.md) on the world model: the background probes,
        // the relaunch drive and the Info.plist assertion (`lifeline experiment`), and the
        // probes as tracking engines (`ProbeEngine`, for `lifeline sweep --probes`).
        .target(name: "Experiments", dependencies: ["Simulation", "World", "Engines"]),
        // Layer 4: Apple's shapes (CLLocationManager, UIApplication and their delegates) over
        // the world's engine API, and `ApplicationEngine`, which runs such an app as an engine.
        .target(name: "LifelineKit", dependencies: ["Simulation", "World", "Engines"]),
        // Built-in engines rewritten on LifelineKit, as a study: `standard-kit`, source
        // D's standard engine as an iOS team writes it, a custom engine of `lifeline-fixtures`
        // and of the LifelineKit tests (docs/studies/kit-engines.md), not of the `lifeline` tool.
        .target(
            name: "KitEngines",
            dependencies: ["LifelineKit", "Engines", "EngineMutants", "World", "Simulation"]),
        // The live-updates study (docs/studies/kit-engines.md, "The async live-updates path"):
        // one app receiving live updates as a world-level engine and as a LifelineKit app, and
        // `live-updates-study`, which runs either form for callgrind.
        .target(
            name: "LiveUpdatesStudy", dependencies: ["LifelineKit", "World", "Simulation"]),
        .executableTarget(name: "live-updates-study", dependencies: ["LiveUpdatesStudy"]),
        // Layer 5 (part): one finished run as a record, the invariants checked over it, its
        // metrics and its timeline. Knows engines only through `TrackingEngine`.
        .target(name: "Invariants", dependencies: ["Simulation", "World", "Engines"]),
        // Layer 5 (part): pictures of one run, a Chrome trace (the Trace Event Format that
        // Perfetto opens) and an SVG timeline, drawn from its record.
        .target(name: "Pictures", dependencies: ["Simulation", "World", "Invariants"]),
        // Layer 5: scenarios (one complete input to a run: a value, a builder, the `.scenario`
        // text format with its parser and printer, and running one on the world).
        .target(
            name: "Scenarios",
            dependencies: ["Simulation", "Formats", "World", "Engines", "EngineMutants"]),
        // Layer 5: lifecycle fuzzing: scenario generators on the explorer, the fuzz loop with
        // shrinking and the corpus of failing scenarios.
        .target(
            name: "Fuzzing",
            dependencies: [
                "Simulation", "Exploration", "World", "Engines", "Scenarios", "Invariants",
            ]),
        // Layer 5: policy research: a policy sweep over a grid of parameter values and a
        // differential run under two policies, on the fuzzer's workers (`lifeline sweep`,
        // `lifeline diff`).
        .target(
            name: "Research",
            dependencies: [
                "Simulation", "Exploration", "World", "Engines", "Experiments", "Scenarios",
                "Invariants", "Fuzzing",
            ]),
        // The Swift Testing entry point of the fuzzer (`fuzzLifecycle` inside `@Test`), for a
        // team's own engine; in its own target so the tool never links Testing.
        .target(
            name: "FuzzingTesting",
            dependencies: ["Engines", "Fuzzing", "Invariants"]),
        // `import Lifeline`: the modules a team's engines, tools and tests use, re-exported
        // (`@_exported import`), for the `Lifeline` product. It links no Swift Testing.
        .target(
            name: "Lifeline",
            dependencies: [
                "Simulation", "VirtualConcurrency", "Formats", "World", "Engines", "EngineMutants",
                "Exploration", "Scenarios", "Invariants", "Fuzzing", "Pictures",
            ]),
        // `import LifelineTesting`: `Lifeline`, LifelineKit and `fuzzLifecycle`, re-exported,
        // for the `LifelineTesting` product.
        .target(
            name: "LifelineTesting", dependencies: ["Lifeline", "LifelineKit", "FuzzingTesting"]),
        // The shrinking benchmark's challenges, run by Properties/ and by
        // `lifeline bench shrink`.
        .target(name: "ShrinkingChallenges", dependencies: ["Exploration"]),
        // The DES peer benchmark's models written in the kernel's idiom, and the
        // commuter day, the world's workload for `lifeline bench day`.
        .target(name: "Benchmarks", dependencies: ["Simulation", "World"]),
        // The command-line tool's parsing and commands, as a library so tests can drive it.
        .target(
            name: "LifelineCommands",
            dependencies: [
                "Simulation", "Exploration", "Formats", "World", "Engines", "EngineMutants",
                "Experiments", "Scenarios", "Invariants", "Pictures", "Fuzzing", "Research",
                "Benchmarks", "ShrinkingChallenges",
            ]),
        // `LifelineCLI.main(engines:)`: the tool's entry point, for `lifeline` and for a team's
        // own executable.
        .target(name: "LifelineCLI", dependencies: ["Engines", "LifelineCommands"]),
        .executableTarget(name: "lifeline", dependencies: ["LifelineCLI"]),
        // A `lifeline` with engines that trap and hang on purpose, run by CommandTests.
        .executableTarget(
            name: "lifeline-fixtures",
            dependencies: ["LifelineCLI", "Engines", "World", "Simulation", "KitEngines"]),

        // The delegate-style tracker of Examples/, as a team writes it for iOS: it imports
        // LifelineKit only where CoreLocation and UIKit are missing.
        .target(
            name: "DelegateTrackerExample", dependencies: ["LifelineKit"],
            path: "Examples/DelegateTracker"),
        // The location sharer of Examples/FileSharer: a `Codable` last location and history in
        // files under Application Support, its settings as `Data` in `UserDefaults`
        // (docs/files.md).
        .target(
            name: "FileSharerExample", dependencies: ["LifelineKit"],
            path: "Examples/FileSharer"),
        // Source C's live-updates code and a CLMonitor and a CLServiceSession, as their sources
        // write them (Swift 5 mode, as written), compiled against LifelineKit.
        .target(
            name: "SourceShapesExample", dependencies: ["LifelineKit"],
            path: "Examples/SourceShapes", swiftSettings: [.swiftLanguageMode(.v5)]),
        // A reporter batching its uploads with a Timer, and a recorder debouncing with
        // DispatchQueue.asyncAfter and a DispatchWorkItem, as iOS teams write them (Swift 5
        // mode, as most such apps are), compiled against LifelineKit's Timer and Dispatch.
        .target(
            name: "BatchedReporterExample", dependencies: ["LifelineKit"],
            path: "Examples/BatchedReporter", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(
            name: "DebouncedRecorderExample", dependencies: ["LifelineKit"],
            path: "Examples/DebouncedRecorder", swiftSettings: [.swiftLanguageMode(.v5)]),
        // A tracker that pauses its location updates while Core Motion says the device is
        // stationary and resumes them when it moves, compiled against LifelineKit's Core Motion.
        .target(
            name: "MotionTrackerExample", dependencies: ["LifelineKit"],
            path: "Examples/MotionTracker", swiftSettings: [.swiftLanguageMode(.v5)]),
        // Every example tracker above as an engine (Examples/ExampleEngines): each as written,
        // its twin and its planted mistake, with their stores on the simulated device; used by
        // the LifelineKit tests and by `lifeline-examples`.
        .target(
            name: "ExampleEngines",
            dependencies: [
                "LifelineKit", "Engines", "World", "Simulation", "Invariants", "Fuzzing",
                "DelegateTrackerExample", "FileSharerExample", "BatchedReporterExample",
                "DebouncedRecorderExample", "MotionTrackerExample",
            ],
            path: "Examples/ExampleEngines"),
        // The `lifeline` tool with the example engines, as a team writes its own
        // (`LifelineCLI.main(engines:)`): `lifeline-examples fuzz --engine file-sharer`.
        .executableTarget(
            name: "lifeline-examples", dependencies: ["LifelineCLI", "ExampleEngines"],
            path: "Examples/lifeline-examples"),

        .testTarget(name: "SimulationTests", dependencies: ["Simulation"]),
        .testTarget(name: "FormatsTests", dependencies: ["Formats"]),
        .testTarget(name: "VirtualConcurrencyTests", dependencies: ["VirtualConcurrency"]),
        .testTarget(
            name: "WorldTests",
            dependencies: ["World", "Formats", "Simulation", "VirtualConcurrency"]),
        .testTarget(
            name: "ExperimentsTests", dependencies: ["Experiments", "World", "Simulation"]),
        .testTarget(
            name: "EnginesTests",
            dependencies: ["Engines", "EngineMutants", "World", "Simulation"]),
        .testTarget(
            name: "ScenariosTests",
            dependencies: ["Scenarios", "Engines", "World", "Simulation"]),
        .testTarget(
            name: "PicturesTests",
            dependencies: [
                "Pictures", "Invariants", "Scenarios", "Fuzzing", "Engines", "World", "Simulation",
            ]),
        .testTarget(
            name: "InvariantsTests", dependencies: ["Invariants", "Engines", "World", "Simulation"]),
        .testTarget(name: "ExplorationTests", dependencies: ["Exploration", "ExplorationTesting"]),
        .testTarget(
            name: "FuzzingTests",
            dependencies: [
                "Fuzzing", "Scenarios", "Invariants", "Engines", "EngineMutants", "World",
                "Simulation",
            ]),
        .testTarget(
            name: "CommandTests",
            dependencies: [
                "LifelineCommands", "LifelineCLI", "Benchmarks", "World", "Simulation",
                "Scenarios", "Fuzzing", "Research", "Engines",
            ]),
        .testTarget(
            name: "LifelineKitTests",
            dependencies: [
                "LifelineKit", "DelegateTrackerExample", "FileSharerExample", "FuzzingTesting",
                "Fuzzing", "Invariants", "Engines", "World", "Simulation", "LifelineCommands",
                "KitEngines", "Scenarios", "Exploration", "LiveUpdatesStudy",
                "BatchedReporterExample", "DebouncedRecorderExample", "VirtualConcurrency",
                "MotionTrackerExample", "ExampleEngines",
            ]),
        // Property-based suites live in Properties/ as their own test target.
        .testTarget(
            name: "Properties",
            dependencies: [
                "Simulation", "Exploration", "ExplorationTesting", "ShrinkingChallenges", "World",
                "Scenarios", "Engines", "EngineMutants", "Invariants", "Fuzzing", "FuzzingTesting",
            ],
            path: "Properties"
        ),
    ],
    swiftLanguageModes: [.v6]
)
