// The saved-record text of LocationFeatures (layer 4, R-A14): one compact string, written
// whenever a feature starts or stops, read defensively at launch.
import World

extension LocationFeatures {
    /// The version tag that opens the text; a text with another tag is unreadable.
    static let savedTextVersion = "features/1"

    /// The features as one line: `features/1|workout=1|commute=0|places=<place>;<place>`, a
    /// place being `<identifier>,<latitude>,<longitude>,<radius>`. Numbers are the hexadecimal
    /// bit patterns of their doubles, so they read back exactly on every platform (no
    /// floating-point formatting); identifiers are percent-escaped.
    public var savedText: String {
        let places = watchedPlaces.map { place in
            [
                SavedText.escape(place.identifier), SavedText.bits(place.center.latitude),
                SavedText.bits(place.center.longitude), SavedText.bits(place.radiusMeters),
            ].joined(separator: ",")
        }
        return [
            Self.savedTextVersion, "workout=\(recordingWorkout ? 1 : 0)",
            "commute=\(commuteDetection ? 1 : 0)", "places=" + places.joined(separator: ";"),
        ].joined(separator: "|")
    }

    /// Reads `savedText`. Nil when the text is not a features text of this version. Inside a
    /// readable text, a malformed field is skipped: an unknown key is ignored, a flag other
    /// than `1` is off, and a place whose numbers are not a latitude, a longitude and a
    /// positive radius, or whose identifier repeats an earlier one, is left out.
    public init?(savedText text: String) {
        let fields = text.split(separator: "|", omittingEmptySubsequences: false)
        guard fields.first == Substring(Self.savedTextVersion) else { return nil }
        self.init()
        for field in fields.dropFirst() {
            guard let equals = field.firstIndex(of: "=") else { continue }
            let key = field[..<equals]
            let value = field[field.index(after: equals)...]
            switch key {
            case "workout": recordingWorkout = value == "1"
            case "commute": commuteDetection = value == "1"
            case "places":
                for text in value.split(separator: ";") {
                    guard let place = SavedText.place(text),
                        !watchedPlaces.contains(where: { $0.identifier == place.identifier })
                    else { continue }
                    watchedPlaces.append(place)
                }
            default: continue
            }
        }
    }
}

/// The helpers of the saved text: exact numbers and escaped identifiers.
enum SavedText {
    /// Bounds of a valid place (degrees; the radius must be positive).
    static let latitudeMagnitudeMaxDegrees = 90.0
    static let longitudeMagnitudeMaxDegrees = 180.0

    static func bits(_ value: Double) -> String { String(value.bitPattern, radix: 16) }

    static func double(_ text: Substring) -> Double? {
        UInt64(text, radix: 16).map(Double.init(bitPattern:))
    }

    static func place(_ text: Substring) -> WatchedPlace? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4, let identifier = unescape(parts[0]), !identifier.isEmpty,
            let latitude = double(parts[1]), let longitude = double(parts[2]),
            let radius = double(parts[3]),
            abs(latitude) <= latitudeMagnitudeMaxDegrees,
            abs(longitude) <= longitudeMagnitudeMaxDegrees, radius > 0, radius.isFinite
        else { return nil }
        return WatchedPlace(
            identifier: identifier, center: Coordinate(latitude: latitude, longitude: longitude),
            radiusMeters: radius)
    }

    /// The characters the text uses as separators, and `%` itself.
    static let reserved: Set<Character> = ["%", "|", ";", ",", "="]

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if reserved.contains(character), let ascii = character.asciiValue {
                let hex = String(ascii, radix: 16, uppercase: true)
                escaped += "%" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                escaped.append(character)
            }
        }
        return escaped
    }

    /// Nil when a `%` is not followed by two hexadecimal digits.
    static func unescape(_ text: Substring) -> String? {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "%" else {
                result.append(character)
                index = text.index(after: index)
                continue
            }
            let start = text.index(after: index)
            guard let end = text.index(start, offsetBy: 2, limitedBy: text.endIndex),
                let code = UInt8(text[start..<end], radix: 16)
            else { return nil }
            result.append(Character(Unicode.Scalar(code)))
            index = end
        }
        return result
    }
}
