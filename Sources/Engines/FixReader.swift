// How Lifeline reads an app's own data (layer 4): a location out of a stored row or an upload
// payload, so that the invariants judge what the app wrote, not what it says.
import World

/// How to read a location out of one of the app's own rows, in its store on the simulated
/// disk or in a batch the server accepted. A team declares it once, with its app's profile; the
/// invariants read every row through it, so that "was this fix stored? was it uploaded?" is
/// decided from the disk and the network, which the model owns.
///
/// `FixRecorder` users get `FixReader.fixRecorder` for free. An engine that keeps its own
/// format reads it back:
///
///     let reader = FixReader { row in
///         guard row.key == "trip-point" else { return nil }   // not a location row
///         return try TripPoint(decoding: row.text).fix          // throws when unreadable
///     }
///
/// `read` returns nil for a row that holds no location, and throws for a row that should and
/// cannot be read: the run is then reported as bad input (exit 2), naming the row.
public struct FixReader: Sendable {
    /// The location the row holds, nil when it holds none.
    public let read: @Sendable (StoredRow) throws -> Fix?
    /// Whether `read` can throw: false only for `fixRecorder`, whose rows need no check.
    package let mayThrow: Bool
    /// Whether `read` returns the row's own `fix`: true only for `fixRecorder`, whose fixes
    /// the invariants read from the rows in place rather than keep a copy of
    /// (`StoredFixes`).
    package var readsRowFix: Bool { !mayThrow }

    public init(read: @escaping @Sendable (StoredRow) throws -> Fix?) {
        self.read = read
        mayThrow = true
    }

    private init(nonThrowing read: @escaping @Sendable (StoredRow) -> Fix?) {
        self.read = read
        mayThrow = false
    }

    /// The rows `FixRecorder` writes (and any row that carries a `fix`).
    public static let fixRecorder = FixReader(nonThrowing: { $0.fix })
}

/// A row the app's `FixReader` could not read.
public struct UnreadableRow: Error, Sendable, CustomStringConvertible {
    /// Where the row was: "store row 3" or "upload batch 2, row 1".
    public var place: String
    public var row: StoredRow
    /// What the reader threw.
    public var reason: String

    public init(place: String, row: StoredRow, reason: String) {
        self.place = place
        self.row = row
        self.reason = reason
    }

    public var description: String {
        "the app's fix reader could not read \(place) (\(row)): \(reason)"
    }
}
