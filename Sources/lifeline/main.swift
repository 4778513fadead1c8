// The `lifeline` executable: the command layer with the built-in engines only.
import LifelineCLI

LifelineCLI.main(engines: [])
