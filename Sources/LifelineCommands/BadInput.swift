// The errors of other layers that are bad input to the tool (the CLI layer): a file or a value
// that is not what was expected. Each names the file, line and what was expected; the tool
// prints it and exits 2, as it does for an `InputError`.
import Engines
import Formats
import Fuzzing
import Research
import Scenarios
import Simulation
import World

/// An error that is the user's input, not the tool's fault: exit 2 in every command.
protocol BadInput: Error, CustomStringConvertible {}

extension PolicyFileError: BadInput {}
extension GPXError: BadInput {}
extension PropertyListError: BadInput {}
extension FlatJSONError: BadInput {}
extension ScenarioParseError: BadInput {}
extension FuzzCorpus.Problem: BadInput {}
extension AppProfileError: BadInput {}
extension SweepRange.Problem: BadInput {}
extension DurationParseError: BadInput {}
extension OrderingSpecification.ParseError: BadInput {}
extension FuzzShard.ParseError: BadInput {}
extension InvariantSelection.UnknownName: BadInput {}
