// GPX 1.1 files as Xcode uses them (file formats): `wpt` or `trkpt` points with an optional
// `time`, read as a stream (`GPXReader`, over `XMLTokenizer`) into plain points, each checked as
// it comes; every problem is an error naming the file and the line.
import Foundation

/// Why a GPX file cannot be a route: the file, the line, and what was expected there.
public struct GPXError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var message: String
    public var description: String {
        line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)"
    }

    public init(path: String, line: Int, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }
}

/// One `wpt` or `trkpt` of a GPX file.
public struct GPXPoint: Sendable, Equatable {
    /// Degrees, in [−90, 90].
    public var latitude: Double
    /// Degrees, in [−180, 180).
    public var longitude: Double
    /// The point's `time` in seconds since 1970-01-01T00:00:00Z, if it has one.
    public var seconds: Double?
    /// The point's `time` as the file writes it (trimmed), for messages.
    public var timeText: String?
    /// The point's `ele` in metres, if it has one.
    public var elevationMeters: Double?
    /// The line of the point's opening tag.
    public var line: Int

    public init(
        latitude: Double, longitude: Double, seconds: Double? = nil, timeText: String? = nil,
        elevationMeters: Double? = nil, line: Int
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.seconds = seconds
        self.timeText = timeText
        self.elevationMeters = elevationMeters
        self.line = line
    }
}

/// The points of a GPX 1.1 file, checked: every `wpt` (Xcode's template) or `trk/trkseg/trkpt`,
/// in file order, each with `lat` in [−90, 90] and `lon` in [−180, 180) and an ISO-8601 UTC
/// `time`, in time order, no two at the same time in different places; or, if no point has a
/// time, none with one. Holds every point: for a long track read into something smaller, use
/// `GPXReader` directly.
public struct GPXDocument: Sendable, Equatable {
    /// The file's name in errors.
    public var path: String
    /// At least one point; all timed, in time order, or all untimed.
    public var points: [GPXPoint]
    /// The `name` of the file's `metadata` or, failing that, of its first `trk`, if any.
    public var name: String?

    /// Reads the GPX file at `path`.
    /// - Throws: `GPXError` naming the file, line and problem.
    public init(contentsOfFile path: String) throws {
        var points: [GPXPoint] = []
        let summary = try GPXReader.read(file: path) { points.append($0) }
        self.path = path
        self.points = points
        self.name = summary.name
    }

    /// Reads GPX from `data`; `path` names it in errors.
    /// - Throws: `GPXError` naming the file, line and problem.
    public init(data: Data, path: String) throws {
        var points: [GPXPoint] = []
        let summary = try GPXReader.read(data: data, path: path) { points.append($0) }
        self.path = path
        self.points = points
        self.name = summary.name
    }
}

/// What `GPXReader` saw of a whole file besides its points.
public struct GPXSummary: Sendable, Equatable {
    /// How many points the file has (at least one).
    public var pointCount: Int
    /// Whether the points have times (all do, or none).
    public var timed: Bool
    /// The `name` of the file's `metadata` or, failing that, of its first `trk`, if any.
    public var name: String?
}

/// Reads a GPX file as a stream, 64 KiB at a time, and hands over its points one by one, each
/// checked as it comes (coordinates, time, order against the point before), so that a track of
/// any length is read in constant memory besides what the caller keeps.
///
/// Reads the subset of XML that GPX files use: elements and attributes (in either quote style),
/// text with the five named entity references and numeric ones, comments, processing
/// instructions, CDATA and a DOCTYPE; other elements (`extensions`, `rte`, …) are skipped. A file
/// that is not well-formed is an error saying what was expected, in words, with its line; one
/// that is not UTF-8 text says so.
public enum GPXReader {
    /// Bytes read from the file at a time.
    public static let defaultChunkSize = 65_536

    /// Reads the GPX file at `path`, calling `body` with each point in file order.
    /// - Throws: `GPXError` naming the file, line and problem, or what `body` throws; `body` may
    ///   have seen points before the error.
    @discardableResult
    public static func read(
        file path: String, chunkSize: Int = defaultChunkSize, _ body: (GPXPoint) throws -> Void
    ) throws -> GPXSummary {
        guard let source = XMLByteSource(path: path, chunkSize: chunkSize) else {
            throw GPXError(path: path, line: 0, message: "the file cannot be read")
        }
        return try read(source, path: path, body)
    }

    /// Reads GPX from `data` (cut into chunks of `chunkSize` bytes, as a file is); `path` names it
    /// in errors.
    @discardableResult
    public static func read(
        data: Data, path: String, chunkSize: Int = defaultChunkSize,
        _ body: (GPXPoint) throws -> Void
    ) throws -> GPXSummary {
        try read(XMLByteSource(data: data, chunkSize: chunkSize), path: path, body)
    }

    private static func read(
        _ source: XMLByteSource, path: String, _ body: (GPXPoint) throws -> Void
    ) throws -> GPXSummary {
        var parser = GPXPointParser(path: path, tokenizer: XMLTokenizer(source: source))
        defer { parser.tokenizer.close() }
        do {
            return try parser.run(body)
        } catch let error as XMLSyntaxError {
            throw GPXError(
                path: path, line: error.line,
                message: error.kind == .malformed
                    ? "not well-formed XML: \(error.message)" : error.message)
        }
    }
}

/// The elements GPX gives a meaning to; any other is `other`.
private enum GPXElement: UInt8 {
    case gpx, metadata, wpt, trk, trkseg, trkpt, time, name, ele, other

    static let names: [(name: [UInt8], element: GPXElement)] = [
        (Array("trkpt".utf8), .trkpt), (Array("time".utf8), .time), (Array("ele".utf8), .ele),
        (Array("wpt".utf8), .wpt), (Array("name".utf8), .name), (Array("trkseg".utf8), .trkseg),
        (Array("trk".utf8), .trk), (Array("gpx".utf8), .gpx),
        (Array("metadata".utf8), .metadata),
    ]

    init(_ name: [UInt8]) {
        self = Self.names.first { $0.name == name }?.element ?? .other
    }

    var isPoint: Bool { self == .wpt || self == .trkpt }
}

/// Turns the tokenizer's tags into checked points.
private struct GPXPointParser {
    let path: String
    var tokenizer: XMLTokenizer

    /// The element kinds of the open elements, outermost first.
    private var open: [GPXElement] = []
    private var sawRoot = false
    /// The point being read and its depth in `open`.
    private var point: GPXPoint?
    private var pointDepth = 0
    /// The text element being collected (`time` or `ele` of the point, or a `name`), its depth
    /// in `open` and its line.
    private var collecting: GPXElement?
    private var collectingDepth = 0
    private var collectingLine = 0
    /// The points so far: how many, whether the first had a time and its line, the last one.
    private var count = 0
    private var firstTimed = false
    private var firstLine = 0
    private var previous: GPXPoint?
    private var name: String?
    private var rootEndLine = 0

    private static let lat = Array("lat".utf8)
    private static let lon = Array("lon".utf8)

    init(path: String, tokenizer: XMLTokenizer) {
        self.path = path
        self.tokenizer = tokenizer
        open.reserveCapacity(16)
    }

    private func fail(_ line: Int, _ message: String) -> GPXError {
        GPXError(path: path, line: line, message: message)
    }

    mutating func run(_ body: (GPXPoint) throws -> Void) throws -> GPXSummary {
        while true {
            switch try tokenizer.next() {
            case .start(let selfClosing):
                try start(selfClosing: selfClosing, body)
            case .end:
                try end(body)
            case .endOfDocument:
                guard sawRoot else {
                    throw fail(1, "expected a <gpx> document, found no element")
                }
                guard count > 0 else {
                    throw fail(rootEndLine, "expected at least one <wpt> or <trkpt>")
                }
                return GPXSummary(pointCount: count, timed: firstTimed, name: name)
            }
        }
    }

    private mutating func start(selfClosing: Bool, _ body: (GPXPoint) throws -> Void) throws {
        let element = GPXElement(tokenizer.name)
        let line = tokenizer.tokenLine
        let parent = open.last
        if !sawRoot {
            sawRoot = true
            guard element == .gpx else {
                throw fail(line, "expected a <gpx> document, found <\(tokenizer.nameText)>")
            }
            if selfClosing { rootEndLine = line }
        }
        open.append(element)
        let depth = open.count
        if element.isPoint && point == nil {
            point = try newPoint(element, line: line)
            pointDepth = depth
        } else if let parent, parent.isPoint, point != nil, depth == pointDepth + 1,
            element == .time || element == .ele
        {
            beginText(element, depth: depth, line: line)
        } else if element == .name, name == nil, parent == .metadata || parent == .trk,
            point == nil
        {
            beginText(element, depth: depth, line: line)
        }
        if selfClosing { try end(body) }
    }

    private mutating func beginText(_ element: GPXElement, depth: Int, line: Int) {
        collecting = element
        collectingDepth = depth
        collectingLine = line
        tokenizer.text.removeAll(keepingCapacity: true)
        tokenizer.collectsText = true
    }

    private mutating func end(_ body: (GPXPoint) throws -> Void) throws {
        let depth = open.count
        let element = open.removeLast()
        if let collected = collecting, depth == collectingDepth {
            collecting = nil
            tokenizer.collectsText = false
            try endText(collected)
        }
        if element.isPoint, depth == pointDepth, let finished = point {
            point = nil
            try check(finished)
            count += 1
            previous = finished
            try body(finished)
        }
        if open.isEmpty { rootEndLine = tokenizer.tokenLine }
    }

    private func newPoint(_ element: GPXElement, line: Int) throws -> GPXPoint {
        let kind = tokenizer.nameText
        guard let latitudeBytes = tokenizer.attribute(Self.lat),
            let longitudeBytes = tokenizer.attribute(Self.lon)
        else {
            throw fail(line, "expected lat and lon attributes on <\(kind)>")
        }
        let latitudeText = String(decoding: latitudeBytes, as: UTF8.self)
        let longitudeText = String(decoding: longitudeBytes, as: UTF8.self)
        guard let latitude = Double(latitudeText), (-90...90).contains(latitude) else {
            throw fail(line, "lat '\(latitudeText)' is not a latitude in [-90, 90]")
        }
        guard let longitude = Double(longitudeText), longitude >= -180, longitude < 180 else {
            throw fail(line, "lon '\(longitudeText)' is not a longitude in [-180, 180)")
        }
        return GPXPoint(latitude: latitude, longitude: longitude, line: line)
    }

    private mutating func endText(_ element: GPXElement) throws {
        let bytes = tokenizer.text
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, XMLTokenizer.isSpace(bytes[start]) { start += 1 }
        while end > start, XMLTokenizer.isSpace(bytes[end - 1]) { end -= 1 }
        let trimmed = bytes[start..<end]
        switch element {
        case .time:
            let text = String(decoding: trimmed, as: UTF8.self)
            guard let seconds = iso8601Seconds(utf8: trimmed) else {
                throw fail(
                    collectingLine,
                    "time '\(text)' is not an ISO-8601 UTC time such as 2026-11-29T07:00:00Z")
            }
            point?.seconds = seconds
            point?.timeText = text
        case .ele:
            let text = String(decoding: trimmed, as: UTF8.self)
            guard let meters = Double(text), meters.isFinite else {
                throw fail(collectingLine, "ele '\(text)' is not an elevation in metres")
            }
            point?.elevationMeters = meters
        case .name:
            name = String(decoding: trimmed, as: UTF8.self)
        default:
            break
        }
    }

    /// Checks `point` against the points before it: all timed or none, in time order, and never
    /// two places at one time.
    private mutating func check(_ point: GPXPoint) throws {
        let timed = point.seconds != nil
        guard let previous else {
            firstTimed = timed
            firstLine = point.line
            return
        }
        if timed != firstTimed {
            // The first point without a time: this one, or the first of all.
            throw fail(
                timed ? firstLine : point.line, "expected a <time>: the other points have one")
        }
        guard let seconds = point.seconds, let previousSeconds = previous.seconds else { return }
        if seconds < previousSeconds {
            throw fail(
                point.line,
                "time \(point.timeText!) is before the previous point's \(previous.timeText!)")
        }
        if seconds == previousSeconds
            && (point.latitude != previous.latitude || point.longitude != previous.longitude)
        {
            throw fail(
                point.line,
                "time \(point.timeText!) is also the time of the point on line \(previous.line), "
                    + "but the places differ: that would be an infinite speed")
        }
    }
}

/// Seconds since 1970 of `YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm)`, computed in integers (no
/// calendar or time-zone database, so the same in every process).
func iso8601Seconds(_ text: String) -> Double? {
    iso8601Seconds(utf8: Array(text.utf8)[...])
}

/// `iso8601Seconds` of UTF-8 bytes.
func iso8601Seconds(utf8 text: ArraySlice<UInt8>) -> Double? {
    let characters = Array(text)
    func number(_ range: Range<Int>) -> Int? {
        guard range.upperBound <= characters.count else { return nil }
        var value = 0
        for character in characters[range] {
            guard (48...57).contains(character) else { return nil }
            value = value * 10 + Int(character - 48)
        }
        return value
    }
    guard characters.count >= 20, characters[4] == 45, characters[7] == 45, characters[10] == 84,
        characters[13] == 58, characters[16] == 58,
        let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
        let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
        (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var index = 19
    var fraction = 0.0
    if characters[index] == 46 {
        index += 1
        var scale = 0.1
        while index < characters.count, (48...57).contains(characters[index]) {
            fraction += Double(characters[index] - 48) * scale
            scale /= 10
            index += 1
        }
    }
    var offsetSeconds = 0
    if index < characters.count, characters[index] == 90, index == characters.count - 1 {
        offsetSeconds = 0
    } else if index + 6 == characters.count, characters[index] == 43 || characters[index] == 45,
        characters[index + 3] == 58, let hours = number(index + 1..<index + 3),
        let minutes = number(index + 4..<index + 6)
    {
        offsetSeconds = (characters[index] == 43 ? 1 : -1) * (hours * 3600 + minutes * 60)
    } else {
        return nil
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    return Double(days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds) + fraction
}
