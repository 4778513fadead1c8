// Files a command writes whole (the CLI layer): checked before any work so that nothing is
// overwritten without `--replace`, then written, every problem an `InputError` (exit 2).
import Foundation

/// A file a command writes in one piece (a Chrome trace, an SVG timeline), named with what it
/// holds for the messages: `PATH: cannot write the SVG timeline: the file exists (pass
/// --replace to overwrite it)`.
struct OutputFile {
    var path: String
    /// What the file holds, in words (`the Chrome trace`).
    var contents: String

    /// Checks that the file can be written: `path` is not a directory and, unless `replacing`,
    /// does not exist.
    /// - Throws: `InputError` saying which.
    func check(replacing: Bool) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return
        }
        if isDirectory.boolValue { throw problem("it is a directory; name a file") }
        if !replacing { throw problem("the file exists (pass --replace to overwrite it)") }
    }

    /// Writes `text` to the file, replacing it whole (write to a temporary file, then rename).
    /// - Throws: `InputError` when the file cannot be written (no such folder, no permission).
    func write(_ text: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw problem("the file cannot be written (does its folder exist?)")
        }
    }

    /// Whether `output` names the file `input` names: the same path once made absolute and
    /// standardized, or the same file on disk (a link, another spelling).
    static func sameFile(_ output: String, _ input: String) -> Bool {
        func absolute(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        if absolute(output) == absolute(input) { return true }
        var outputStatus = stat()
        var inputStatus = stat()
        guard stat(output, &outputStatus) == 0, stat(input, &inputStatus) == 0 else {
            return false
        }
        return outputStatus.st_dev == inputStatus.st_dev
            && outputStatus.st_ino == inputStatus.st_ino
    }

    private func problem(_ reason: String) -> InputError {
        InputError("\(path): cannot write \(contents): \(reason)")
    }
}
