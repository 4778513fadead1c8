// The largest input file of each kind the tool reads (the CLI layer), checked from the file's
// size before a byte of it is read: a file far larger than any real one of its kind is refused
// at once (exit 2) rather than read whole and then found wrong.
import Foundation
import Simulation

/// A kind of input file and the most bytes one may have. The limits sit far above real files
/// of each kind (measured on this repository's own files and the formats' sources) and far
/// below what reading them would cost in memory and time.
struct InputLimit: Sendable {
    /// What the file is, for the error ("a policy file").
    var kind: String
    /// The most bytes a file of this kind may have.
    var bytesMax: Int

    /// A policy file: a flat JSON object of IOSPolicy's properties. Every property set, with
    /// comments' worth of room, is under 8 KB; 1 MiB is over a hundred times that.
    static let policyFile = InputLimit(kind: "a policy file", bytesMax: 1 << 20)
    /// An app's Info.plist (XML). Xcode's for a large app is tens of KB.
    static let infoPlist = InputLimit(kind: "an Info.plist", bytesMax: 1 << 20)
    /// A scenario file or a corpus entry. The longest a scenario may be (a week's route of
    /// segments, one waypoint a minute, and its events) prints to about 1 MB.
    static let scenarioFile = InputLimit(kind: "a scenario file", bytesMax: 16 << 20)
    /// A GPX track (read as a stream). A week's track at one point a second is about 100 MB.
    static let gpxFile = InputLimit(kind: "a GPX file", bytesMax: 256 << 20)

    /// Fails when the file at `path` is larger than `bytesMax`, before reading it; a file whose
    /// size cannot be read (missing, unreadable) passes here and is refused by its reader, with
    /// the reason.
    /// - Throws: `InputError` naming the file, its size and the limit.
    func check(_ path: String) throws {
        guard
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.intValue, size > bytesMax
        else { return }
        throw InputError(
            "\(path): \(Self.megabytes(size)) is too large for \(kind): at most "
                + "\(Self.megabytes(bytesMax)) (nothing was read)")
    }

    /// `bytes` in MiB with one decimal.
    static func megabytes(_ bytes: Int) -> String {
        PlainText.fixed(Double(bytes) / Double(1 << 20), digits: 1) + " MiB"
    }
}
