// The discrete settings of a scenario and their alternatives (layer 5): what the explain
// phase varies to find the settings a failure does not depend on.
import Engines
import Scenarios
import Simulation
import World

/// A setting of a scenario with a small domain, named as the `.scenario` text format names
/// it, and the other values it could take.
///
/// Every alternative is a whole scenario differing from the given one in this setting only.
/// Domains of two to five values are listed in full; the seeds (`ordering`'s and the world's)
/// have a domain too large to try, so they get a fixed sample of `seedSampleCount` others.
/// To add a setting: a row in `all`, in the order the text format prints it.
struct DiscreteSetting: Sendable {
    /// The setting's name: a directive (`policy`, `seed`), an engine setting's key
    /// (`startOnBoot`), a capability's word (`scene-based`) or an answer's key after
    /// `answers.` (`answers.always`, since `always` alone would read as the authorization).
    var name: String
    /// The scenario with this setting changed to each other value, in a fixed order.
    var alternatives: @Sendable (Scenario) -> [Scenario]

    /// Alternatives tried for a seed.
    static let seedSampleCount = 4

    /// Orderings tried instead of the scenario's: FIFO and two seeds of each other strategy
    /// (the depth the generator uses, 2).
    static let orderings: [OrderingSpecification] = [
        .fifo, .random(seed: 1), .random(seed: 2), .pct(seed: 1, depth: 2),
        .pct(seed: 2, depth: 2),
    ]

    /// Every discrete setting, in the order the text format prints them.
    static var all: [DiscreteSetting] {
        [
            flag("stopOnTerminate", \.engine.settings.stopOnTerminate),
            flag("startOnBoot", \.engine.settings.startOnBoot),
            choice("policy", \.policy.preset, among: IOSPolicy.presetNames),
            choice("authorization", \.authorization, among: Authorization.allCases),
            choice("accuracy", \.accuracy, among: [.full, .reduced]),
            flag("location-background", \.capabilities.locationBackgroundMode),
            flag("scene-based", \.capabilities.sceneBased),
            choice("answers.whenInUse", \.answers.whenInUse, among: [.whenInUse, .denied]),
            choice("answers.always", \.answers.always, among: [.always, .whenInUse]),
            flag("answers.temporaryFullAccuracy", \.answers.temporaryFullAccuracy),
            choice("ordering", \.ordering, among: orderings),
            DiscreteSetting(name: "seed") { scenario in
                (1...seedSampleCount).map { sample in
                    var changed = scenario
                    changed.seed = Seed(scenario.seed).derive(UInt64(sample)).value
                    return changed
                }
            },
        ]
    }

    /// A boolean setting: its one alternative is the other value.
    static func flag(_ name: String, _ keyPath: WritableKeyPath<Scenario, Bool> & Sendable)
        -> DiscreteSetting
    {
        choice(name, keyPath, among: [false, true])
    }

    /// A setting whose alternatives are the values of `domain` other than the scenario's, in
    /// `domain`'s order.
    static func choice<Value: Equatable & Sendable>(
        _ name: String, _ keyPath: WritableKeyPath<Scenario, Value> & Sendable,
        among domain: [Value]
    ) -> DiscreteSetting {
        DiscreteSetting(name: name) { scenario in
            domain.filter { $0 != scenario[keyPath: keyPath] }.map { value in
                var changed = scenario
                changed[keyPath: keyPath] = value
                return changed
            }
        }
    }
}
