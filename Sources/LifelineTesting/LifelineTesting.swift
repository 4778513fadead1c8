// What a team's own tests import (`import LifelineTesting`): one product that re-exports the
// modules such a test uses, so a test target depends on it alone.
//
// - `Simulation`: virtual time (`Instant`, `VirtualDuration`) and seeds;
// - `World`: the world, its configuration, routes, user actions, the policy, the engine API;
// - `Engines`: `TrackingEngine`, `CustomEngine`, the built-in engines and `FixRecorder`;
// - `EngineMutants`: the built-in engines with one real mistake, to check that a test catches one;
// - `LifelineKit`: Core Location's and UIKit's shapes with Apple's names, and `ApplicationEngine`;
// - `Scenarios`, `Invariants`, `Fuzzing`: a scenario, a finished run's record and invariants,
//   the generators and the fuzz loop;
// - `FuzzingTesting`: `fuzzLifecycle`, the fuzzer inside a Swift Testing `@Test`.
@_exported import EngineMutants
@_exported import Engines
@_exported import Fuzzing
@_exported import FuzzingTesting
@_exported import Invariants
@_exported import LifelineKit
@_exported import Scenarios
@_exported import Simulation
@_exported import World
