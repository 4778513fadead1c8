// Reading a `.scenario` file from disk (layer 5), as a stream: each line is parsed as it
// arrives, so an error early in a huge file is reported at once and memory is bounded by the
// longest line (`Scenario.lineBytesMax`), not by the file's size.
import Engines
import Foundation

extension Scenario {
    /// The longest line a scenario file may have, in bytes. The longest line the printer
    /// writes is a `policy` line with every override (about 2,500 bytes); 64 KiB leaves room
    /// for hand-written comments and bounds what one line can make the reader hold.
    public static let lineBytesMax = 65_536
    /// The bytes read from a file at a time.
    static let fileChunkBytes = 65_536

    /// Reads the scenario file at `path` (UTF-8, an optional byte-order mark, lines ended by
    /// LF, CRLF or CR), which must close with `end` (`init(parsing:path:engines:requiresEnd:)`).
    /// - Throws: `ScenarioParseError`: the file cannot be read (line 0, with the reason), or
    ///   its text is not a scenario, reported at the first bad line without reading further.
    public init(contentsOfFile path: String, engines: [CustomEngine] = [])
        throws(ScenarioParseError)
    {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScenarioParseError(
                path: path, line: 0, column: 0,
                message: "cannot read the scenario file: no such file")
        }
        guard !isDirectory.boolValue else {
            throw ScenarioParseError(
                path: path, line: 0, column: 0,
                message: "cannot read the scenario file: it is a directory")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ScenarioParseError(
                path: path, line: 0, column: 0,
                message: "cannot read the scenario file: permission denied or not a file")
        }
        defer { try? handle.close() }
        var parser = ScenarioParser(path: path, customEngines: engines)
        var splitter = ScenarioLineSplitter(path: path)
        while true {
            let chunk: Data
            do {
                guard let read = try handle.read(upToCount: Self.fileChunkBytes), !read.isEmpty
                else { break }
                chunk = read
            } catch {
                throw ScenarioParseError(
                    path: path, line: 0, column: 0,
                    message: "cannot read the scenario file: \(error.localizedDescription)")
            }
            try splitter.add(chunk) { line throws(ScenarioParseError) in try parser.read(line) }
        }
        let end = try splitter.finish { line throws(ScenarioParseError) in try parser.read(line) }
        self = try parser.finish(end: end, requiresEnd: true)
    }
}
