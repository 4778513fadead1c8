// The `lifeline` executable: the command layer with the built-in engines and `standard-kit`
// (the standard engine rewritten on LifelineKit, KitEngines).
import KitEngines
import LifelineCLI

LifelineCLI.main(engines: [.standardKit])
