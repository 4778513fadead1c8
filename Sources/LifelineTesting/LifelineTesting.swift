// What a team's own tests import (`import LifelineTesting`): one product that re-exports the
// modules such a test uses, so a test target depends on it alone.
//
// - `Lifeline`: the umbrella (the kernel, the world, the engines and mutants, scenarios,
//   invariants, the fuzzer, pictures);
// - `LifelineKit`: Core Location's and UIKit's shapes with Apple's names, and `ApplicationEngine`;
// - `FuzzingTesting`: `fuzzLifecycle`, the fuzzer inside a Swift Testing `@Test`.
@_exported import FuzzingTesting
@_exported import Lifeline
@_exported import LifelineKit
