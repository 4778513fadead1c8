// Reading a `.scenario` file from disk (layer 5).
import Engines
import Foundation

extension Scenario {
    /// Reads the scenario file at `path` (UTF-8).
    /// - Throws: `ScenarioParseError`: the file cannot be read (line 0), or its text is not a
    ///   scenario (`init(parsing:path:engines:)`).
    public init(contentsOfFile path: String, engines: [CustomEngine] = [])
        throws(ScenarioParseError)
    {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioParseError(
                path: path, line: 0, column: 0, message: "cannot read the scenario file")
        }
        try self.init(parsing: String(decoding: data, as: UTF8.self), path: path, engines: engines)
    }
}
