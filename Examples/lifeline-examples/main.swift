// The `lifeline` tool with the example trackers' engines, as a team writes its own.
import ExampleEngines
import LifelineCLI

LifelineCLI.main(engines: ExampleEngines.all)
