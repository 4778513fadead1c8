// Every engine the tool can run by name: the correct built-in engines and, from here, the
// mutants.
import Engines

extension EngineChoice {
    /// Every engine, the correct ones first, each group in its declared order.
    public static var all: [EngineChoice] {
        BuiltInEngine.allCases.map(EngineChoice.builtIn) + Mutant.allCases.map(EngineChoice.mutant)
    }

    /// The engine called `name`, if any: a built-in engine, a mutant, or one of `custom`.
    public init?(name: String, custom: [CustomEngine] = []) {
        if let engine = BuiltInEngine(rawValue: name) {
            self = .builtIn(engine)
        } else if let mutant = Mutant(rawValue: name) {
            self = .mutant(mutant)
        } else if let engine = custom.first(where: { $0.name == name }) {
            self = .custom(engine)
        } else {
            return nil
        }
    }

    /// A mutant by its case: `.mutant(.sessionFromBackground)`.
    public static func mutant(_ mutant: Mutant) -> EngineChoice { .mutant(mutant.engine) }
}
