// The `lifeline` executable: hands the arguments to the command layer and exits with its code.
import Foundation
import LifelineCommands

exit(LifelineCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
