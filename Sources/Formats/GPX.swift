// GPX 1.1 files as Xcode uses them (file formats): `wpt` or `trkpt` points with an optional
// `time`, read into plain points; every problem is an error naming the file and the line.
import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

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
    /// The line of the point's opening tag.
    public var line: Int

    public init(
        latitude: Double, longitude: Double, seconds: Double? = nil, timeText: String? = nil,
        line: Int
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.seconds = seconds
        self.timeText = timeText
        self.line = line
    }
}

/// The points of a GPX 1.1 file, checked: every `wpt` (Xcode's template) or `trk/trkseg/trkpt`,
/// in file order, each with `lat` in [−90, 90] and `lon` in [−180, 180) and an ISO-8601 UTC
/// `time`, in time order; or, if no point has a time, none with one.
public struct GPXDocument: Sendable, Equatable {
    /// The file's name in errors.
    public var path: String
    /// At least one point; all timed, in time order, or all untimed.
    public var points: [GPXPoint]

    /// Reads the GPX file at `path`.
    /// - Throws: `GPXError` naming the file, line and problem.
    public init(contentsOfFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GPXError(path: path, line: 0, message: "the file cannot be read")
        }
        try self.init(data: data, path: path)
    }

    /// Reads GPX from `data`; `path` names it in errors.
    /// - Throws: `GPXError` naming the file, line and problem.
    public init(data: Data, path: String) throws {
        let reader = GPXReader(path: path)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        let parsed = parser.parse()
        if let error = reader.error { throw error }
        // Foundation on Linux can report an error to the delegate and still return true.
        guard parsed, parser.parserError == nil else {
            throw GPXError(
                path: path, line: parser.lineNumber,
                message:
                    "not well-formed XML (\(parser.parserError.map { "\($0.localizedDescription)" } ?? "parse error"))"
            )
        }
        guard reader.sawRoot else {
            throw GPXError(path: path, line: 1, message: "expected a <gpx> document")
        }
        let points = reader.points
        guard let first = points.first else {
            throw GPXError(
                path: path, line: parser.lineNumber,
                message: "expected at least one <wpt> or <trkpt>")
        }
        let timed = points.filter { $0.seconds != nil }
        if !timed.isEmpty && timed.count != points.count {
            let untimed = points.first { $0.seconds == nil }!
            throw GPXError(
                path: path, line: untimed.line,
                message: "expected a <time>: the other points have one")
        }
        if first.seconds != nil {
            for (previous, point) in zip([first] + points, points)
            where point.seconds! < previous.seconds! {
                throw GPXError(
                    path: path, line: point.line,
                    message:
                        "time \(point.timeText!) is before the previous point's \(previous.timeText!)"
                )
            }
        }
        self.path = path
        self.points = points
    }
}

/// Collects points as the XML parser reports elements; records the first error with its line.
private final class GPXReader: NSObject, XMLParserDelegate {
    let path: String
    var points: [GPXPoint] = []
    var error: GPXError?
    var sawRoot = false
    private var open: GPXPoint?
    private var inTime = false
    private var timeText = ""

    init(path: String) { self.path = path }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        guard error == nil else { return }
        switch name {
        case "gpx": sawRoot = true
        case "wpt", "trkpt":
            let line = parser.lineNumber
            guard let latitudeText = attributes["lat"], let longitudeText = attributes["lon"] else {
                fail(parser, line, "expected lat and lon attributes on <\(name)>")
                return
            }
            guard let latitude = Double(latitudeText), (-90...90).contains(latitude) else {
                fail(parser, line, "lat '\(latitudeText)' is not a latitude in [-90, 90]")
                return
            }
            guard let longitude = Double(longitudeText), longitude >= -180, longitude < 180 else {
                fail(parser, line, "lon '\(longitudeText)' is not a longitude in [-180, 180)")
                return
            }
            open = GPXPoint(latitude: latitude, longitude: longitude, line: line)
        case "time" where open != nil:
            inTime = true
            timeText = ""
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTime { timeText += string }
    }

    func parser(
        _ parser: XMLParser, didEndElement name: String, namespaceURI: String?,
        qualifiedName: String?
    ) {
        guard error == nil else { return }
        switch name {
        case "time" where inTime:
            inTime = false
            let text = timeText.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let seconds = iso8601Seconds(text) else {
                fail(
                    parser, parser.lineNumber,
                    "time '\(text)' is not an ISO-8601 UTC time such as 2026-11-29T07:00:00Z")
                return
            }
            open?.seconds = seconds
            open?.timeText = text
        case "wpt", "trkpt":
            if let point = open { points.append(point) }
            open = nil
        default: break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard error == nil else { return }
        let code = (parseError as NSError).code
        let reason =
            switch code {
            case 76: "a closing tag does not match its opening tag"
            case 5: "the document ends before its elements are closed"
            case 4: "the document is empty"
            default: "XML error \(code)"
            }
        error = GPXError(
            path: path, line: parser.lineNumber, message: "not well-formed XML: \(reason)")
    }

    private func fail(_ parser: XMLParser, _ line: Int, _ message: String) {
        error = GPXError(path: path, line: line, message: message)
        parser.abortParsing()
    }
}

/// Seconds since 1970 of `YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm)`, computed in integers (no
/// calendar or time-zone database, so the same in every process).
func iso8601Seconds(_ text: String) -> Double? {
    let characters = Array(text.utf8)
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
