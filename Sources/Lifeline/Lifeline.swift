// `import Lifeline`: the umbrella module of the `Lifeline` product, what a team's engines,
// tools and tests use besides Apple's shapes (`LifelineKit`), re-exported:
//
// - `Simulation`: virtual time (`Instant`, `VirtualDuration`), seeds, orderings, traces;
// - `VirtualConcurrency`: Swift concurrency and the clock in virtual time;
// - `Formats`: the files the world reads (GPX routes, policy files, Info.plist);
// - `World`: the world, its configuration, routes, user actions, the policy, the engine API;
// - `Engines`: `TrackingEngine`, `CustomEngine`, `AppProfile`, the built-in engines and
//   `FixRecorder`; `EngineMutants`: the built-in engines with one real mistake;
// - `Exploration`, `Scenarios`, `Invariants`, `Fuzzing`: generators, a scenario, a finished
//   run's record and invariants, the fuzz loop and its corpus;
// - `Pictures`: a run as an SVG timeline or a Chrome trace.
//
// Nothing here links Swift Testing: a team's tool depends on it as its tests do
// (`LifelineTesting` adds `fuzzLifecycle` and LifelineKit).
@_exported import EngineMutants
@_exported import Engines
@_exported import Exploration
@_exported import Formats
@_exported import Fuzzing
@_exported import Invariants
@_exported import Pictures
@_exported import Scenarios
@_exported import Simulation
@_exported import VirtualConcurrency
@_exported import World
