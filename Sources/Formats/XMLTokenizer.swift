// A streaming tokenizer for the subset of XML that GPX files use (file formats): elements with
// attributes in either quote style, text with entity references, comments, processing
// instructions, CDATA sections and a DOCTYPE to skip. It reads its bytes in chunks (a 64 KiB
// window of a file, or of data in memory), so a file of any size is read in constant memory,
// and says what is wrong with a file that is not well-formed in words, with its line.
import Foundation

/// Why bytes are not the XML a GPX reader can read: the line and the problem in words.
struct XMLSyntaxError: Error, Equatable {
    enum Kind: Equatable {
        /// Text that is not well-formed XML.
        case malformed
        /// Bytes that are not UTF-8 text at all (a NUL or control byte, or invalid UTF-8).
        case notText
        /// The file could not be read (line 0).
        case unreadable
    }

    /// The line where the problem was found, from 1 (0 when the file cannot be read).
    var line: Int
    var message: String
    var kind = Kind.malformed
}

/// Where the tokenizer's bytes come from: a file read through a `FileHandle` in chunks, or data
/// in memory cut into chunks of the same size.
struct XMLByteSource {
    private enum Origin {
        case file(FileHandle)
        case data(Data, offset: Int)
    }

    private var origin: Origin
    private let chunkSize: Int

    /// Reads the file at `path`, `chunkSize` bytes at a time; nil if it cannot be opened.
    init?(path: String, chunkSize: Int) {
        precondition(chunkSize > 0, "a chunk holds at least one byte")
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        origin = .file(handle)
        self.chunkSize = chunkSize
    }

    /// Reads `data`, `chunkSize` bytes at a time.
    init(data: Data, chunkSize: Int) {
        precondition(chunkSize > 0, "a chunk holds at least one byte")
        origin = .data(data, offset: 0)
        self.chunkSize = chunkSize
    }

    /// Replaces `chunk` with the next bytes; false at the end.
    mutating func read(into chunk: inout [UInt8]) throws -> Bool {
        chunk.removeAll(keepingCapacity: true)
        switch origin {
        case .file(let handle):
            let read: Data?
            do {
                read = try handle.read(upToCount: chunkSize)
            } catch {
                throw XMLSyntaxError(
                    line: 0, message: "the file cannot be read (\(error.localizedDescription))",
                    kind: .unreadable)
            }
            guard let data = read, !data.isEmpty else {
                try? handle.close()
                return false
            }
            chunk.append(contentsOf: data)
        case .data(let data, let offset):
            guard offset < data.count else { return false }
            let end = min(offset + chunkSize, data.count)
            let start = data.startIndex + offset
            chunk.append(contentsOf: data[start..<(data.startIndex + end)])
            origin = .data(data, offset: end)
        }
        return true
    }

    /// Closes the file, if any (at the end of a read, or after an error).
    func close() {
        if case .file(let handle) = origin { try? handle.close() }
    }
}

/// Checks that bytes are UTF-8 text, chunk after chunk (a character may straddle two chunks):
/// no NUL or other control byte than tab, line feed and carriage return, and only well-formed
/// UTF-8 sequences (no overlong forms, no surrogates, nothing above U+10FFFF).
struct UTF8TextCheck {
    /// Continuation bytes still expected for the current character.
    private var pending = 0
    /// The range the next continuation byte must lie in (narrower after E0, ED, F0, F4).
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF

    /// Whether the bytes so far end between characters.
    var isBetweenCharacters: Bool { pending == 0 }

    /// The index of the first byte of `chunk` that is not text, with the reason; nil if all are.
    mutating func firstProblem(in chunk: [UInt8]) -> (index: Int, reason: String)? {
        var index = 0
        let count = chunk.count
        while index < count {
            if pending == 0 {
                // Eight bytes at a time while they are printable ASCII (no byte ≥ 0x80, none below
                // 0x20): most of a GPX file.
                index = chunk.withUnsafeBytes { raw in
                    var position = index
                    while position + 8 <= count {
                        let word = UInt64(
                            littleEndian: raw.loadUnaligned(
                                fromByteOffset: position, as: UInt64.self))
                        let high: UInt64 = 0x8080_8080_8080_8080
                        let belowSpace = (word &- 0x2020_2020_2020_2020) & ~word & high
                        guard (word & high) | belowSpace == 0 else { break }
                        position += 8
                    }
                    return position
                }
                guard index < count else { break }
            }
            let byte = chunk[index]
            if pending == 0 {
                if byte >= 0x20 && byte < 0x80 {
                    index += 1
                    continue
                }
                switch byte {
                case 0x09, 0x0A, 0x0D: break
                case 0x00: return (index, "it has a NUL byte")
                case 0x01..<0x20:
                    return (index, "it has the control byte \(Self.hex(byte))")
                case 0xC2...0xDF: pending = 1
                case 0xE0:
                    pending = 2
                    low = 0xA0
                case 0xED:
                    pending = 2
                    high = 0x9F
                case 0xE1...0xEF: pending = 2
                case 0xF0:
                    pending = 3
                    low = 0x90
                case 0xF4:
                    pending = 3
                    high = 0x8F
                case 0xF1...0xF3: pending = 3
                default: return (index, "it has the byte \(Self.hex(byte)), which is not UTF-8")
                }
            } else {
                guard byte >= low && byte <= high else {
                    return (index, "it has the byte \(Self.hex(byte)), which is not UTF-8")
                }
                pending -= 1
                low = 0x80
                high = 0xBF
            }
            index += 1
        }
        return nil
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }
}

/// A pull tokenizer over an `XMLByteSource`. `next()` returns the next start tag, end tag or the
/// end of the document; the current token's name, attributes and line are in its properties.
/// Text between tags is checked (entity references, nothing but white space outside the root)
/// and kept in `text` only while `collectsText` is set.
struct XMLTokenizer {
    enum Token: Equatable {
        /// A start tag: `name`, `attributeNames`/`attributeValues`, `tokenLine`; with `/>`, no
        /// end tag follows.
        case start(selfClosing: Bool)
        /// An end tag (`name`, `tokenLine`), already matched against its start tag.
        case end
        /// The end of the file, after the root element closed.
        case endOfDocument
    }

    /// The deepest nesting of elements read; deeper is an error (every loop has a bound).
    static let maximumDepth = 256
    /// The longest text kept while `collectsText` is set, in bytes.
    static let maximumTextBytes = 1 << 20
    /// The longest element or attribute name, in bytes.
    static let maximumNameBytes = 1024

    private var source: XMLByteSource
    private var chunk: [UInt8] = []
    private var index = 0
    private var textCheck = UTF8TextCheck()
    private var exhausted = false
    /// Whether the file's last byte is a line break (known at its end).
    private var endsWithLineFeed = false
    /// The byte that ends a line: LF, unless the file's first line break is a CR without a LF
    /// after it (a file written with CR line endings), then CR. CRLF files count their LFs.
    private var lineBreak: UInt8 = 0x0A
    /// Whether `lineBreak` is decided (at the first CR or LF of the file).
    private var lineBreakKnown = false
    /// The current line, from 1.
    private(set) var line = 1

    /// The current token's element name (UTF-8).
    private(set) var name: [UInt8] = []
    /// The line where the current token's `<` is.
    private(set) var tokenLine = 1
    /// The current start tag's attributes, names and values (entity references replaced).
    private(set) var attributeNames: [[UInt8]] = []
    private(set) var attributeValues: [[UInt8]] = []
    private var attributeCount = 0
    /// Whether text (and CDATA) is appended to `text`.
    var collectsText = false
    /// The text collected while `collectsText` was set, entity references replaced.
    var text: [UInt8] = []

    /// Open elements: their names, back to back in `openNames`, and where each starts and opened.
    private var openNames: [UInt8] = []
    private var openElements: [(nameStart: Int, line: Int)] = []
    private var rootClosed = false
    private var rootName: [UInt8] = []
    private var started = false

    /// The depth of the current position: how many elements are open.
    var depth: Int { openElements.count }

    init(source: XMLByteSource) {
        self.source = source
        attributeNames.reserveCapacity(8)
        attributeValues.reserveCapacity(8)
    }

    /// Closes the underlying file.
    func close() { source.close() }

    // MARK: Bytes

    /// The next byte without consuming it; nil at the end of the file.
    @inline(__always)
    private mutating func peek() throws -> UInt8? {
        if index < chunk.count { return chunk[index] }
        return try refill()
    }

    /// Consumes the byte `peek` returned.
    @inline(__always)
    private mutating func advance() {
        if chunk[index] == lineBreak { line += 1 }
        index += 1
    }

    /// The next byte, consumed; nil at the end of the file.
    @inline(__always)
    private mutating func nextByte() throws -> UInt8? {
        guard let byte = try peek() else { return nil }
        advance()
        return byte
    }

    private mutating func refill() throws -> UInt8? {
        guard !exhausted else { return nil }
        index = 0
        let lastByte = chunk.last
        guard try source.read(into: &chunk) else {
            exhausted = true
            endsWithLineFeed = lastByte == lineBreak
            guard textCheck.isBetweenCharacters else {
                throw XMLSyntaxError(
                    line: line,
                    message: "not a text file: it ends inside a UTF-8 character", kind: .notText)
            }
            return nil
        }
        if !lineBreakKnown, let first = chunk.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            // A CR as the chunk's last byte counts as CR: a LF split off by the chunking is
            // too rare a case to read ahead for.
            lineBreakKnown = true
            if chunk[first] == 0x0D, first + 1 >= chunk.count || chunk[first + 1] != 0x0A {
                lineBreak = 0x0D
            }
        }
        if let problem = textCheck.firstProblem(in: chunk) {
            let breakByte = lineBreak
            let lineOfProblem = line + chunk[..<problem.index].lazy.filter { $0 == breakByte }.count
            throw XMLSyntaxError(
                line: lineOfProblem, message: "not a text file: \(problem.reason)",
                kind: .notText)
        }
        return chunk[0]
    }

    // MARK: Tokens

    /// The next start tag, end tag, or the end of the document.
    /// - Throws: `XMLSyntaxError` at the first problem.
    mutating func next() throws -> Token {
        if !started {
            started = true
            try skipByteOrderMark()
        }
        while true {
            guard let byte = try peek() else { return try endOfFile() }
            if byte == UInt8(ascii: "<") {
                tokenLine = line
                advance()
                if let token = try markup() { return token }
            } else {
                try readText()
            }
        }
    }

    private mutating func skipByteOrderMark() throws {
        guard try peek() == 0xEF else { return }
        advance()
        guard try nextByte() == 0xBB, try nextByte() == 0xBF else {
            throw error("the file starts with bytes that are neither a byte order mark nor '<'")
        }
    }

    private mutating func endOfFile() throws -> Token {
        if let open = openElements.last {
            throw error(
                "expected </\(openName(open.nameStart))> to close <\(openName(open.nameStart))> "
                    + "(opened on line \(open.line)), found end of file")
        }
        return .endOfDocument
    }

    /// After `<`: a start or end tag (returned), or a comment, processing instruction, CDATA
    /// section or DOCTYPE (consumed; nil).
    private mutating func markup() throws -> Token? {
        guard let byte = try peek() else {
            throw error("expected a tag name after '<', found end of file")
        }
        switch byte {
        case UInt8(ascii: "/"):
            advance()
            try endTag()
            return .end
        case UInt8(ascii: "?"):
            advance()
            try skip(until: "?>", what: "a processing instruction")
            return nil
        case UInt8(ascii: "!"):
            advance()
            try declaration()
            return nil
        default:
            guard Self.isNameStart(byte) else {
                throw error("expected a tag name after '<', found \(Self.describe(byte))")
            }
            let selfClosing = try startTag()
            return .start(selfClosing: selfClosing)
        }
    }

    /// After `<!`: a comment, a CDATA section or a DOCTYPE.
    private mutating func declaration() throws {
        if try consume("--") {
            try skip(until: "-->", what: "a comment")
        } else if try consume("[CDATA[") {
            guard depth > 0 else { throw error("a CDATA section outside the root element") }
            try skip(until: "]]>", what: "a CDATA section", keep: true)
        } else if try consume("DOCTYPE") {
            guard depth == 0, rootName.isEmpty else {
                throw error("a DOCTYPE is allowed only before the root element")
            }
            try skipDoctype()
        } else {
            throw error("expected a comment '<!--', '<![CDATA[' or '<!DOCTYPE' after '<!'")
        }
    }

    /// Consumes `literal` if the input continues with it; true if it did. A partial match is an
    /// error (nothing in the subset starts alike).
    private mutating func consume(_ literal: String) throws -> Bool {
        var matched = 0
        for expected in literal.utf8 {
            guard let byte = try peek(), byte == expected else {
                if matched == 0 { return false }
                throw error("expected '\(literal)' after '<!'")
            }
            advance()
            matched += 1
        }
        return true
    }

    /// Skips to just after `terminator` (a run of one character, then `>`: `?>`, `-->`, `]]>`);
    /// appends what it skips to `text` if `keep` and text is being collected.
    private mutating func skip(
        until terminator: String, what: String, keep: Bool = false
    ) throws {
        let openedLine = tokenLine
        let bytes = Array(terminator.utf8)
        let repeated = bytes[0]
        let runLength = bytes.count - 1
        let keeps = keep && collectsText
        var run = 0
        while true {
            guard let byte = try nextByte() else {
                throw error(
                    "\(what) opened on line \(openedLine) is not closed with '\(terminator)', "
                        + "found end of file")
            }
            if byte == repeated {
                if run == runLength {
                    if keeps { try appendText(CollectionOfOne(repeated)) }
                } else {
                    run += 1
                }
                continue
            }
            if byte == UInt8(ascii: ">") && run == runLength { return }
            if keeps {
                try appendText(repeatElement(repeated, count: run))
                try appendText(CollectionOfOne(byte))
            }
            run = 0
        }
    }

    /// Skips a DOCTYPE's body to its closing `>`, over an internal subset in `[…]` and quotes.
    private mutating func skipDoctype() throws {
        let openedLine = tokenLine
        var bracketDepth = 0
        var quote: UInt8? = nil
        while let byte = try nextByte() {
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                bracketDepth += 1
            } else if byte == UInt8(ascii: "]") {
                bracketDepth -= 1
            } else if byte == UInt8(ascii: ">") && bracketDepth <= 0 {
                return
            }
        }
        throw error(
            "expected '>' to close the DOCTYPE opened on line \(openedLine), found end of file")
    }

    /// Text up to the next `<`: entity references replaced, kept if `collectsText`; outside the
    /// root, only white space.
    private mutating func readText() throws {
        let outside = depth == 0
        while let byte = try peek() {
            if byte == UInt8(ascii: "<") { return }
            if outside && !Self.isSpace(byte) {
                let context =
                    rootName.isEmpty
                    ? "before the root element"
                    : "after the root element </\(String(decoding: rootName, as: UTF8.self))>"
                var snippet: [UInt8] = []
                while let next = try peek(), next != UInt8(ascii: "<"), next != 0x0A,
                    snippet.count < 24
                {
                    snippet.append(next)
                    advance()
                }
                throw error(
                    "text \"\(String(decoding: snippet, as: UTF8.self))\" \(context); "
                        + "only white space may be there")
            }
            if !outside && byte != UInt8(ascii: "&") {
                // (NUL, the third stop, never reaches here: the text check rejects it.)
                let start = consume(until: (UInt8(ascii: "<"), UInt8(ascii: "&"), 0))
                if collectsText { try appendText(chunk[start..<index]) }
                continue
            }
            advance()
            if byte == UInt8(ascii: "&") {
                let scalar = try entity()
                if collectsText { try appendText(scalar) }
            } else if collectsText {
                if text.count >= Self.maximumTextBytes {
                    throw error("text longer than \(Self.maximumTextBytes) bytes")
                }
                text.append(byte)
            }
        }
    }

    /// Consumes the bytes of the current chunk before the first of `stops` (or to the chunk's
    /// end), counting their lines, with `memchr`; returns where they start. Runs of text, of
    /// attribute values and of names are most of a file, and this reads them at memory speed.
    private mutating func consume(until stops: (UInt8, UInt8, UInt8)) -> Int {
        let count = chunk.count
        let start = index
        guard start < count else { return start }
        let breakByte = Int32(lineBreak)
        let (stop, lineFeeds) = chunk.withUnsafeBufferPointer { buffer -> (Int, Int) in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            func find(_ byte: UInt8, to end: Int) -> Int? {
                guard end > start, let found = memchr(base + start, Int32(byte), end - start)
                else { return nil }
                return base.distance(to: UnsafeRawPointer(found))
            }
            var stop = find(stops.0, to: count) ?? count
            stop = find(stops.1, to: stop) ?? stop
            stop = find(stops.2, to: stop) ?? stop
            var lineFeeds = 0
            var position = start
            while position < stop,
                let found = memchr(base + position, breakByte, stop - position)
            {
                lineFeeds += 1
                position = base.distance(to: UnsafeRawPointer(found)) + 1
            }
            return (stop, lineFeeds)
        }
        line += lineFeeds
        index = stop
        return start
    }

    private mutating func appendText<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws {
        if text.count + bytes.count > Self.maximumTextBytes {
            throw error("text longer than \(Self.maximumTextBytes) bytes")
        }
        text.append(contentsOf: bytes)
    }

    /// After `&`: an entity reference up to its `;`, as the UTF-8 bytes it stands for.
    private mutating func entity() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            guard let byte = try nextByte() else {
                throw error("expected ';' to end an entity reference, found end of file")
            }
            if byte == UInt8(ascii: ";") { break }
            guard body.count < 32, Self.isNameByte(byte) || byte == UInt8(ascii: "#") else {
                throw error(
                    "'&' starts an entity reference such as &amp; that ends with ';'; "
                        + "write a lone '&' as &amp;")
            }
            body.append(byte)
        }
        let text = String(decoding: body, as: UTF8.self)
        switch text {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            guard text.hasPrefix("#") else {
                throw error(
                    "unknown entity reference &\(text); (only &amp; &lt; &gt; &quot; &apos; and "
                        + "numeric ones such as &#233; are defined)")
            }
            let digits = text.dropFirst()
            let value =
                digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            guard let value, value != 0, let scalar = Unicode.Scalar(value),
                value >= 0x20 || value == 9 || value == 10 || value == 13
            else {
                throw error("&\(text); is not the number of a character")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    /// After `<` and at a name: the start tag's name and attributes, up to `>` or `/>`; true for
    /// `/>`.
    private mutating func startTag() throws -> Bool {
        if depth == 0 && rootClosed {
            try readTagName()
            throw error(
                "a second root element <\(nameText)> after </\(String(decoding: rootName, as: UTF8.self))>"
            )
        }
        try readTagName()
        attributeCount = 0
        var spaced = false
        while true {
            guard let byte = try peek() else {
                throw error("expected '>' to close <\(nameText)>, found end of file")
            }
            if Self.isSpace(byte) {
                advance()
                spaced = true
                continue
            }
            if byte == UInt8(ascii: ">") {
                advance()
                guard depth < Self.maximumDepth else {
                    throw error("elements nested deeper than \(Self.maximumDepth) levels")
                }
                openElements.append((openNames.count, tokenLine))
                openNames.append(contentsOf: name)
                return false
            }
            if byte == UInt8(ascii: "/") {
                advance()
                guard let next = try peek() else {
                    throw error("expected '>' to close <\(nameText)>, found end of file")
                }
                guard next == UInt8(ascii: ">") else {
                    throw error(
                        "expected '>' after '/' in <\(nameText)>, found \(Self.describe(next))")
                }
                advance()
                if depth == 0 {
                    rootName = name
                    rootClosed = true
                }
                return true
            }
            guard Self.isNameStart(byte) else {
                throw error(
                    "expected an attribute, '>' or '/>' in <\(nameText)>, found \(Self.describe(byte))"
                )
            }
            guard spaced else {
                throw error("expected a space before the attribute in <\(nameText)>")
            }
            try readAttribute()
            spaced = false
        }
    }

    /// One attribute: a name, `=`, and a value in double or single quotes.
    private mutating func readAttribute() throws {
        if attributeCount == attributeNames.count {
            attributeNames.append([])
            attributeValues.append([])
        }
        var attributeBuffer: [UInt8] = []
        swap(&attributeBuffer, &attributeNames[attributeCount])
        try readName(into: &attributeBuffer)
        swap(&attributeBuffer, &attributeNames[attributeCount])
        let attributeName = String(decoding: attributeNames[attributeCount], as: UTF8.self)
        for earlier in 0..<attributeCount
        where attributeNames[earlier] == attributeNames[attributeCount] {
            throw error("attribute \(attributeName) appears twice in <\(nameText)>")
        }
        try skipSpace()
        guard let equals = try peek() else {
            throw error("expected '>' to close <\(nameText)>, found end of file")
        }
        guard equals == UInt8(ascii: "=") else {
            throw error(
                "expected '=' after attribute \(attributeName) in <\(nameText)>, "
                    + "found \(Self.describe(equals))")
        }
        advance()
        try skipSpace()
        guard let quote = try peek() else {
            throw error("expected '>' to close <\(nameText)>, found end of file")
        }
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error(
                "expected a value in quotes for attribute \(attributeName) in <\(nameText)>, "
                    + "found \(Self.describe(quote))")
        }
        advance()
        attributeValues[attributeCount].removeAll(keepingCapacity: true)
        while true {
            guard let byte = try nextByte() else {
                throw error(
                    "expected \(Self.describe(quote)) to close the value of attribute "
                        + "\(attributeName) in <\(nameText)>, found end of file")
            }
            if byte == quote { break }
            if byte == UInt8(ascii: "<") {
                throw error(
                    "'<' in the value of attribute \(attributeName) in <\(nameText)> "
                        + "(write it as &lt;)")
            }
            if byte == UInt8(ascii: "&") {
                attributeValues[attributeCount].append(contentsOf: try entity())
            } else {
                attributeValues[attributeCount].append(byte)
                let start = consume(until: (quote, UInt8(ascii: "&"), UInt8(ascii: "<")))
                attributeValues[attributeCount].append(contentsOf: chunk[start..<index])
            }
            guard attributeValues[attributeCount].count <= Self.maximumTextBytes else {
                throw error("the value of attribute \(attributeName) is too long")
            }
        }
        attributeCount += 1
    }

    /// The value of the current start tag's attribute `name`, if it has one.
    func attribute(_ wanted: [UInt8]) -> [UInt8]? {
        for index in 0..<attributeCount where attributeNames[index] == wanted {
            return attributeValues[index]
        }
        return nil
    }

    /// After `</`: the name, optional space, `>`; it must close the innermost open element.
    private mutating func endTag() throws {
        guard let first = try peek() else {
            throw error("expected a tag name after '</', found end of file")
        }
        guard Self.isNameStart(first) else {
            throw error("expected a tag name after '</', found \(Self.describe(first))")
        }
        try readTagName()
        try skipSpace()
        guard let byte = try peek() else {
            throw error("expected '>' to close </\(nameText)>, found end of file")
        }
        guard byte == UInt8(ascii: ">") else {
            throw error("expected '>' to close </\(nameText)>, found \(Self.describe(byte))")
        }
        advance()
        guard let open = openElements.last else {
            throw error("</\(nameText)> closes no element: none is open")
        }
        guard openNames[open.nameStart...].elementsEqual(name) else {
            let openText = openName(open.nameStart)
            throw error(
                "</\(nameText)> closes <\(openText)> (opened on line \(open.line)); "
                    + "expected </\(openText)>")
        }
        openNames.removeSubrange(open.nameStart...)
        openElements.removeLast()
        if openElements.isEmpty {
            rootName = name
            rootClosed = true
        }
    }

    /// Reads a name into `name` (through a swap, so that its storage is reused).
    private mutating func readTagName() throws {
        var buffer: [UInt8] = []
        swap(&buffer, &name)
        defer { swap(&buffer, &name) }
        try readName(into: &buffer)
    }

    private mutating func readName(into buffer: inout [UInt8]) throws {
        buffer.removeAll(keepingCapacity: true)
        while try peek() != nil {
            // Names hold no line feed, so only the index moves.
            let start = index
            let count = chunk.count
            index = chunk.withUnsafeBufferPointer { bytes in
                var end = start
                while end < count, Self.isNameByte(bytes[end]) { end += 1 }
                return end
            }
            buffer.append(contentsOf: chunk[start..<index])
            guard buffer.count <= Self.maximumNameBytes else {
                throw error("a name longer than \(Self.maximumNameBytes) bytes")
            }
            if index < count { return }
        }
    }

    private mutating func skipSpace() throws {
        while let byte = try peek(), Self.isSpace(byte) { advance() }
    }

    // MARK: Helpers

    /// The current token's name as text.
    var nameText: String { String(decoding: name, as: UTF8.self) }

    private func openName(_ start: Int) -> String {
        let end = openElements.first { $0.nameStart > start }?.nameStart ?? openNames.count
        return String(decoding: openNames[start..<end], as: UTF8.self)
    }

    /// An error at the current line; at the end of a file that ends with a line feed, the last
    /// line (the one the line feed ends), as an editor numbers it.
    private func error(_ message: String) -> XMLSyntaxError {
        XMLSyntaxError(line: exhausted && endsWithLineFeed ? line - 1 : line, message: message)
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    @inline(__always)
    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F
            || byte == 0x3A || byte >= 0x80
    }

    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
    }

    /// A byte as an error message shows it.
    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x0A, 0x0D: return "the end of the line"
        case 0x21...0x7E: return "'\(String(UnicodeScalar(byte)))'"
        case 0x20, 0x09: return "a space"
        default: return "a non-ASCII character"
        }
    }
}
