// GPX read as a stream: a track over 10 MB (which Foundation's XMLParser rejected), the same
// points whatever the chunk size, the XML subset GPX files use, well-formedness errors in words
// with their lines, files that are not text, and two places at one time.
import Foundation
import Testing

@testable import Formats

/// A temporary file holding `bytes`, removed by the caller.
func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lifeline-formats-\(ProcessInfo.processInfo.processIdentifier)-\(name)"
    ).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

/// `value` in decimal, left-padded with zeros to `width` digits.
private func digits(_ value: Int, _ width: Int, into bytes: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<width { divisor *= 10 }
    while divisor > 0 {
        bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
        divisor /= 10
    }
}

/// A timed walk north of `count` points a second apart from 2026-11-01T00:00:00Z, each with a
/// `<name>` of `nameBytes` letters; one line per point after a three-line header.
func longTrack(points count: Int, nameBytes: Int) -> [UInt8] {
    var bytes = Array(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"test\">\n<trk><trkseg>\n"
            .utf8)
    bytes.reserveCapacity(count * (86 + nameBytes))
    let name = Array(repeating: UInt8(ascii: "n"), count: nameBytes)
    let pointStart = Array("<trkpt lat=\"51.".utf8)
    let longitude = Array("\" lon=\"-0.1200000\"><name>".utf8)
    let nameEnd = Array("</name><time>2026-11-".utf8)
    let pointEnd = Array("Z</time></trkpt>\n".utf8)
    for index in 0..<count {
        bytes += pointStart
        digits(index * 10, 7, into: &bytes)  // about 1.1 m a second
        bytes += longitude
        bytes += name
        bytes += nameEnd
        let day = 1 + index / 86_400
        let second = index % 86_400
        digits(day, 2, into: &bytes)
        bytes.append(UInt8(ascii: "T"))
        digits(second / 3600, 2, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        digits(second / 60 % 60, 2, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        digits(second % 60, 2, into: &bytes)
        bytes += pointEnd
    }
    bytes += Array("</trkseg></trk>\n</gpx>\n".utf8)
    return bytes
}

/// The error reading `text` throws, if it is a `GPXError`.
func gpxError(_ text: String, chunkSize: Int = GPXReader.defaultChunkSize) -> GPXError? {
    gpxError(bytes: Array(text.utf8), chunkSize: chunkSize)
}

func gpxError(bytes: [UInt8], chunkSize: Int = GPXReader.defaultChunkSize) -> GPXError? {
    do {
        try GPXReader.read(data: Data(bytes), path: "bad.gpx", chunkSize: chunkSize) { _ in }
        return nil
    } catch {
        return error as? GPXError
    }
}

/// A document whose every point and name can be checked, using each part of the XML subset:
/// a byte order mark, the XML declaration, a DOCTYPE with an internal subset, comments (one
/// ending in `--->`-like runs), a processing instruction, CDATA, entity references of each kind,
/// single and double quotes, space around `=`, CRLF line ends, namespaced extensions skipped.
let subsetDocument: [UInt8] =
    [0xEF, 0xBB, 0xBF]
    + Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE gpx [ <!ELEMENT gpx ANY> <!-- "quoted" > --> ]>
        <gpx version='1.1' creator="Tom &amp; Jerry" xmlns:x="urn:x">
          <!-- a comment with <wpt lat="0" lon="0"/> inside, ending oddly --->
          <metadata><name>Tom &amp; Jerry&apos;s &lt;ride&gt; &#233;&#xE9; <![CDATA[[x]]]> &quot;y&quot;</name></metadata>
          <?app-specific data?>
          <wpt lat = "51.5" lon='-0.12'><ele> 12.5 </ele><time>2026-11-29T07:00:00Z</time>
            <extensions><x:speed>3</x:speed><x:time>not a time</x:time></extensions></wpt>
          <trk><name>second name, not kept</name><trkseg>
            <trkpt
              lat="51.5001" lon="-0.12"><time>2026-11-29T07:00:10Z</time><name>é</name></trkpt>
            <trkpt lat="51.5002" lon="-0.12"><time><![CDATA[2026-11-29T07:00:20Z]]></time></trkpt>
          </trkseg></trk>
        </gpx>

        """.utf8)

@Suite("GPX read as a stream")
struct GPXStreamTests {
    @Test("a track of over 10 MB is read from its file, every point with its time and line")
    func largeTrack() throws {
        // 50,000 points with 160-byte names make 12.8 MB: over the 10 MB that XMLParser failed
        // at, and read in under a second in a debug build (200,000 short points take 3 s).
        let count = 50_000
        let bytes = longTrack(points: count, nameBytes: 160)
        #expect(bytes.count > 10 * 1_048_576)
        let path = try temporaryFile("large.gpx", bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var seen = 0
        var last: GPXPoint?
        let summary = try GPXReader.read(file: path) { point in
            seen += 1
            last = point
        }
        #expect(summary == GPXSummary(pointCount: count, timed: true, name: nil))
        #expect(seen == count)
        #expect(last?.line == count + 3)
        #expect(last?.timeText == "2026-11-01T13:53:19Z")
        #expect(last?.latitude == 51.049999)
    }

    @Test("the XML subset GPX files use is read the same whatever the chunk size")
    func subset() throws {
        let expected = [
            GPXPoint(
                latitude: 51.5, longitude: -0.12, seconds: 1_795_935_600,
                timeText: "2026-11-29T07:00:00Z", elevationMeters: 12.5, line: 7),
            GPXPoint(
                latitude: 51.5001, longitude: -0.12, seconds: 1_795_935_610,
                timeText: "2026-11-29T07:00:10Z", line: 10),
            GPXPoint(
                latitude: 51.5002, longitude: -0.12, seconds: 1_795_935_620,
                timeText: "2026-11-29T07:00:20Z", line: 12),
        ]
        for chunkSize in Array(1...9) + [64, GPXReader.defaultChunkSize] {
            var points: [GPXPoint] = []
            let summary = try GPXReader.read(
                data: Data(subsetDocument), path: "subset.gpx", chunkSize: chunkSize
            ) { points.append($0) }
            #expect(points == expected, "chunk size \(chunkSize)")
            #expect(
                summary.name == "Tom & Jerry's <ride> éé [x] \"y\"", "chunk size \(chunkSize)")
        }
        let document = try GPXDocument(data: Data(subsetDocument), path: "subset.gpx")
        #expect(document.points == expected)
        #expect(document.name == "Tom & Jerry's <ride> éé [x] \"y\"")
    }

    @Test(
        "each well-formedness error says what was expected, in words, on its line",
        arguments: [
            (
                "<gpx>\n<wpt lat=\"1\" lon=\"2\"", 2,
                "expected '>' to close <wpt>, found end of file"
            ),
            ("<gpx>\n<wpt lat=\"1\"\n", 2, "expected '>' to close <wpt>, found end of file"),
            (
                "<gpx>\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"/>", 3,
                "expected </trkseg> to close <trkseg> (opened on line 2), found end of file"
            ),
            (
                "<gpx>\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"/>\n</trk>\n</gpx>", 4,
                "</trk> closes <trkseg> (opened on line 2); expected </trkseg>"
            ),
            ("</gpx>", 1, "</gpx> closes no element: none is open"),
            (
                "<gpx>\n<wpt lat \"1\" lon=\"2\"/></gpx>", 2,
                "expected '=' after attribute lat in <wpt>, found '\"'"
            ),
            (
                "<gpx>\n<wpt lat=1 lon=\"2\"/></gpx>", 2,
                "expected a value in quotes for attribute lat in <wpt>, found '1'"
            ),
            (
                "<gpx>\n<wpt lat=\"1\"lon=\"2\"/></gpx>", 2,
                "expected a space before the attribute in <wpt>"
            ),
            (
                "<gpx>\n<wpt lat=\"1 lon='2'/>\nmore", 3,
                "expected '\"' to close the value of attribute lat in <wpt>, found end of file"
            ),
            (
                "<gpx>\n<wpt lat=\"<1\" lon=\"2\"/></gpx>", 2,
                "'<' in the value of attribute lat in <wpt>"
            ),
            (
                "<gpx>\n<wpt lat=\"1\" lat=\"2\" lon=\"3\"/></gpx>", 2,
                "attribute lat appears twice in <wpt>"
            ),
            (
                "<gpx>\n<wpt lat=\"1\" lon=\"2\" ?></gpx>", 2,
                "expected an attribute, '>' or '/>' in <wpt>, found '?'"
            ),
            (
                "<gpx>\n<wpt lat=\"1\" lon=\"2\"/ ></gpx>", 2,
                "expected '>' after '/' in <wpt>, found a space"
            ),
            ("<gpx>\n< wpt/></gpx>", 2, "expected a tag name after '<', found a space"),
            (
                "hello\n<gpx/>", 1,
                "text \"hello\" before the root element; only white space may be there"
            ),
            (
                "<gpx>\n<wpt lat=\"1\" lon=\"2\"/>\n</gpx>\ntrailing words\n", 4,
                "text \"trailing words\" after the root element </gpx>"
            ),
            (
                "<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>\n<gpx></gpx>", 2,
                "a second root element <gpx> after </gpx>"
            ),
            (
                "<gpx>\n<!-- a note\n<wpt lat=\"1\" lon=\"2\"/>\n</gpx>", 4,
                "a comment opened on line 2 is not closed with '-->', found end of file"
            ),
            (
                "<?xml version=\"1.0\"\n<gpx/>", 2,
                "a processing instruction opened on line 1 is not closed with '?>'"
            ),
            (
                "<gpx>\n<wpt lat=\"1\" lon=\"2\"><![CDATA[x]]</wpt></gpx>", 2,
                "a CDATA section opened on line 2 is not closed with ']]>'"
            ),
            (
                "<gpx><trk>\n<name>Tom &nbsp; Jerry</name></trk></gpx>", 2,
                "unknown entity reference &nbsp;"
            ),
            (
                "<gpx><trk>\n<name>Tom & Jerry</name></trk></gpx>", 2,
                "'&' starts an entity reference such as &amp; that ends with ';'"
            ),
            (
                "<gpx><trk>\n<name>&#0;</name></trk></gpx>", 2,
                "&#0; is not the number of a character"
            ),
            (
                "<gpx>\n<!ELEMENT x></gpx>", 2,
                "expected a comment '<!--', '<![CDATA[' or '<!DOCTYPE'"
            ),
            (
                "<gpx>" + String(repeating: "<e>", count: 300), 1,
                "elements nested deeper than 256 levels"
            ),
        ] as [(String, Int, String)])
    func wellFormedness(text: String, line: Int, message: String) {
        for chunkSize in [1, 5, GPXReader.defaultChunkSize] {
            let error = gpxError(text, chunkSize: chunkSize)
            #expect(error?.path == "bad.gpx")
            #expect(error?.line == line, "chunk size \(chunkSize)")
            #expect(
                error?.message.hasPrefix("not well-formed XML: ") == true
                    && error?.message.contains(message) == true,
                "chunk size \(chunkSize): \(error?.message ?? "no error")")
            #expect(error?.message.contains("XML error") == false)
        }
    }

    @Test(
        "a file that is not UTF-8 text says so, with the line of the first such byte",
        arguments: [
            (Array("<gpx>\n<wpt".utf8) + [0] + Array("/></gpx>".utf8), 2, "it has a NUL byte"),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0], 1, "the byte 0x89"),
            ([0x1F, 0x8B, 0x08, 0x00], 1, "the control byte 0x1F"),
            (
                Array("<gpx><trk><name>".utf8) + [0xC0, 0x80], 1,
                "the byte 0xC0, which is not UTF-8"
            ),
            (Array("<gpx>\n\n<trk><name>".utf8) + [0xED, 0xA0, 0x80], 3, "the byte 0xA0"),
            (Array("<gpx><trk><name>".utf8) + [0xC3], 1, "it ends inside a UTF-8 character"),
        ] as [([UInt8], Int, String)])
    func notText(bytes: [UInt8], line: Int, message: String) throws {
        for chunkSize in [1, 3, GPXReader.defaultChunkSize] {
            let error = gpxError(bytes: bytes, chunkSize: chunkSize)
            #expect(error?.line == line, "chunk size \(chunkSize)")
            #expect(
                error?.message.hasPrefix("not a text file: ") == true
                    && error?.message.contains(message) == true,
                "chunk size \(chunkSize): \(error?.message ?? "no error")")
        }
    }

    @Test("a binary file on disk is reported as not text, not as an empty document")
    func binaryFile() throws {
        let path = try temporaryFile("image.gpx", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            throws: GPXError(
                path: path, line: 1,
                message: "not a text file: it has the byte 0x89, which is not UTF-8"
            )
        ) { try GPXDocument(contentsOfFile: path) }
    }

    @Test("a directory is a file that cannot be read")
    func directory() {
        #expect {
            try GPXDocument(contentsOfFile: FileManager.default.temporaryDirectory.path)
        } throws: { error in
            guard let error = error as? GPXError else { return false }
            return error.line == 0 && error.message.hasPrefix("the file cannot be read")
        }
    }

    @Test("two points at the same time in different places are an error naming both lines")
    func sameTimeElsewhere() throws {
        let error = gpxError(
            bytes: Array(
                gpx(
                    """
                    <wpt lat="1" lon="2"><time>2026-11-29T07:00:00Z</time></wpt>
                    <wpt lat="1" lon="2.001"><time>2026-11-29T07:00:00Z</time></wpt>
                    """)))
        #expect(error?.line == 4)
        #expect(
            error?.message
                == "time 2026-11-29T07:00:00Z is also the time of the point on line 3, but the "
                + "places differ: that would be an infinite speed")
        // The same place twice at one time is a pause, not an error.
        let document = try GPXDocument(
            data: gpx(
                """
                <wpt lat="1" lon="2"><time>2026-11-29T07:00:00Z</time></wpt>
                <wpt lat="1" lon="2"><time>2026-11-29T07:00:00Z</time></wpt>
                """), path: "pause.gpx")
        #expect(document.points.count == 2)
    }

    @Test(
        "other content errors name their line",
        arguments: [
            ("<kml>\n</kml>", 1, "expected a <gpx> document, found <kml>"),
            ("", 1, "expected a <gpx> document, found no element"),
            (
                "<?xml version=\"1.0\"?>\n<!-- nothing -->\n", 1,
                "expected a <gpx> document, found no element"
            ),
            (
                "<gpx>\n<wpt lat=\"1\" lon=\"2\"><ele>high</ele></wpt></gpx>", 2,
                "ele 'high' is not an elevation in metres"
            ),
            ("<gpx>\n<trk>\n</trk>\n</gpx>\n", 4, "expected at least one <wpt> or <trkpt>"),
            ("<gpx/>", 1, "expected at least one <wpt> or <trkpt>"),
        ] as [(String, Int, String)])
    func contentErrors(text: String, line: Int, message: String) {
        let error = gpxError(text)
        #expect(error?.line == line)
        #expect(error?.message == message)
    }
}
