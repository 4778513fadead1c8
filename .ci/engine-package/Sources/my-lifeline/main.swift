// The team's own `lifeline`: every command, with the team's engines added.
import LifelineCLI
import MyEngines

LifelineCLI.main(engines: [mine, trapper, backgroundTrapper, spinner])
