// A temporary folder for one command test, named after the test (no random, no clock).
import Foundation

/// A fresh folder under the system's temporary directory for one test: its name is made of
/// the test's file and function and this process's id, so tests running side by side, and
/// two test processes, never share one. Whatever a previous run left there is removed first.
struct TemporaryFolder {
    let path: String

    init(file: String = #fileID, function: String = #function) throws {
        let name = (file + "-" + function).filter { $0.isLetter || $0.isNumber || $0 == "-" }
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "lifeline-\(name)-\(ProcessInfo.processInfo.processIdentifier)"
            ).path
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the folder (`name` may hold folders, which are not made).
    func path(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Writes `text` to `name` inside the folder, making the folders it names; returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path(name)
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Removes the folder and everything in it.
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
