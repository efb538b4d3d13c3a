/// Reads JSON Lines (one object per line) or one JSON array of objects from a file's bytes,
/// one object at a time, so memory stays bounded at any file size.
///
/// Each top-level member becomes a cell at the position of its value. Scalars stay close to the
/// text (numbers as byte ranges, so integers and decimals are exact); arrays and objects become
/// ``JSONValue``s for transformable attributes. Nesting deeper than 512 levels is an error, not
/// a stack overflow. In JSON Lines each line stands alone, so after a malformed line reading goes
/// on at the next one and every bad line can be reported; a JSON array stops at its first error.
struct ImportJSONReader: ImportRecordReader {
    private let bytes: UnsafeRawBufferPointer
    private let isArray: Bool
    private var i = 0
    private var line = 1
    private var lineStart = 0
    private var recordsRead = 0
    private var finished = false
    private var columnIndex: [String: Int] = [:]
    private(set) var columnNames: [String] = []
    private(set) var columnPositions: [ImportPosition] = []
    var hasFixedColumns: Bool { false }

    private static let maximumDepth = 512

    /// A reader of JSON Lines (`isArray` false) or of a JSON array of objects.
    init(bytes: UnsafeRawBufferPointer, isArray: Bool) throws(ImportSyntaxError) {
        self.bytes = bytes
        self.isArray = isArray
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3; lineStart = 3 }
        if isArray {
            skipWhitespace()
            guard peek == UInt8(ascii: "[") else { throw error("expected a JSON array of objects ('[')") }
            i += 1
        }
    }

    mutating func next(into record: inout ImportRecord) throws(ImportSyntaxError) -> Bool {
        do {
            return try readNext(into: &record)
        } catch {
            guard !isArray else { throw error }
            skipRestOfLine()
            throw ImportSyntaxError(position: error.position, message: error.message, isResumable: true)
        }
    }

    /// Moves past the line the reader stopped on (always forward, to the end of the file at the
    /// latest): a JSON Lines record never spans lines, so the next one starts after it.
    private mutating func skipRestOfLine() {
        while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
        if i < bytes.count { i += 1; line += 1; lineStart = i }
    }

    private mutating func readNext(into record: inout ImportRecord) throws(ImportSyntaxError) -> Bool {
        record.cells.removeAll(keepingCapacity: true)
        guard !finished else { return false }
        if isArray {
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                i += 1
                skipWhitespace()
                guard i == bytes.count else { throw error("unexpected text after the closing ']'") }
                finished = true
                return false
            }
            if recordsRead > 0 {
                guard peek == UInt8(ascii: ",") else { throw error("expected ',' or ']' after an object") }
                i += 1
                skipWhitespace()
            }
        } else {
            skipWhitespace()
            guard i < bytes.count else { finished = true; return false }
        }
        record.position = here
        guard peek == UInt8(ascii: "{") else {
            if isArray && i >= bytes.count { throw error("the array is never closed (expected ']')") }
            throw error("expected a JSON object ('{')")
        }
        try readObject(into: &record)
        recordsRead += 1
        if !isArray {
            // One object per line: only blanks may follow it on its line.
            while i < bytes.count, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") || bytes[i] == UInt8(ascii: "\r") { i += 1 }
            guard i == bytes.count || bytes[i] == UInt8(ascii: "\n") else { throw error("expected one object per line") }
        }
        return true
    }

    // MARK: Records

    private mutating func readObject(into record: inout ImportRecord) throws(ImportSyntaxError) {
        i += 1
        skipWhitespace()
        if peek == UInt8(ascii: "}") { i += 1; return }
        var seen = Set<Int>()
        while true {
            guard peek == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let keyPosition = here
            let key = try readString()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':' after member name") }
            i += 1
            skipWhitespace()
            let column = columnIndex(for: key, at: keyPosition)
            guard seen.insert(column).inserted else { throw ImportSyntaxError(position: keyPosition, message: "member '\(key)' appears twice in the object") }
            let position = here
            record.cells.append(ImportCell(column: column, value: try readCellValue(), position: position))
            skipWhitespace()
            if peek == UInt8(ascii: ",") { i += 1; skipWhitespace(); continue }
            if peek == UInt8(ascii: "}") { i += 1; return }
            throw error("expected ',' or '}' in an object")
        }
    }

    private mutating func columnIndex(for key: String, at position: ImportPosition) -> Int {
        if let c = columnIndex[key] { return c }
        columnIndex[key] = columnNames.count
        columnNames.append(key)
        columnPositions.append(position)
        return columnNames.count - 1
    }

    private mutating func readCellValue() throws(ImportSyntaxError) -> ImportCellValue {
        switch peek {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .structured(try readValue(depth: 0))
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            switch try readLiteral() {
            case .bool(let b): return .bool(b)
            default: return .null
            }
        default:
            let (start, end) = try readNumber()
            return .number(start: start, end: end)
        }
    }

    // MARK: Values

    private mutating func readValue(depth: Int) throws(ImportSyntaxError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("JSON nested deeper than \(Self.maximumDepth) levels") }
        switch peek {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return try readLiteral()
        case UInt8(ascii: "["):
            i += 1
            skipWhitespace()
            var items: [JSONValue] = []
            if peek == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                items.append(try readValue(depth: depth + 1))
                skipWhitespace()
                if peek == UInt8(ascii: ",") { i += 1; skipWhitespace(); continue }
                if peek == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw error("expected ',' or ']' in an array")
            }
        case UInt8(ascii: "{"):
            i += 1
            skipWhitespace()
            var members: [String: JSONValue] = [:]
            if peek == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                guard peek == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                let key = try readString()
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { throw error("expected ':' after member name") }
                i += 1
                skipWhitespace()
                members[key] = try readValue(depth: depth + 1)
                skipWhitespace()
                if peek == UInt8(ascii: ",") { i += 1; skipWhitespace(); continue }
                if peek == UInt8(ascii: "}") { i += 1; return .object(members) }
                throw error("expected ',' or '}' in an object")
            }
        default:
            let (start, end) = try readNumber()
            return .number(ImportValueParser.double(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) ?? 0)
        }
    }

    private mutating func readLiteral() throws(ImportSyntaxError) -> JSONValue {
        for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)] where matches(word) {
            i += word.utf8.count
            return value
        }
        throw error("expected a JSON value")
    }

    private func matches(_ word: String) -> Bool {
        var k = i
        for b in word.utf8 {
            guard k < bytes.count, bytes[k] == b else { return false }
            k += 1
        }
        return true
    }

    /// A number's byte range, checked against JSON's grammar.
    private mutating func readNumber() throws(ImportSyntaxError) -> (Int, Int) {
        let start = i
        func digits() -> Int { let s = i; while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }; return i - s }
        if peek == UInt8(ascii: "-") { i += 1 }
        let intDigits = digits()
        guard intDigits > 0 else { i = start; throw error("expected a JSON value") }
        guard !(intDigits > 1 && bytes[i - intDigits] == UInt8(ascii: "0")) else { i = start; throw error("a JSON number has no leading zeros") }
        if peek == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw error("expected digits after '.'") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw error("expected digits in the exponent") }
        }
        return (start, i)
    }

    /// A string at `i` (on its opening quote), unescaped; validated as UTF-8.
    private mutating func readString() throws(ImportSyntaxError) -> String {
        let opening = here
        i += 1
        let start = i
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            // Fast path: no escapes.
            guard let s = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self) else {
                throw ImportSyntaxError(position: opening, message: "string is not valid UTF-8")
            }
            i += 1
            return s
        }
        var out = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
        while true {
            guard i < bytes.count else { throw ImportSyntaxError(position: opening, message: "string is never closed") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; break }
            guard b >= 0x20 else { throw error("control character in a string (escape it)") }
            guard b == UInt8(ascii: "\\") else { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw ImportSyntaxError(position: opening, message: "string is never closed") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "u"):
                var scalar = try readHex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard matches("\\u") else { throw error("unpaired surrogate in \\u escape") }
                    i += 2
                    let low = try readHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw ImportSyntaxError(position: opening, message: "string is not valid UTF-8") }
        return s
    }

    private mutating func readHex4() throws(ImportSyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 48...57: d = UInt32(b - 48)
            case 65...70: d = UInt32(b - 55)
            case 97...102: d = UInt32(b - 87)
            default: throw error("invalid \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    // MARK: Scanning

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }
    private var here: ImportPosition { ImportPosition(line: line, lineStart: lineStart, offset: i) }
    private func error(_ message: String) -> ImportSyntaxError { ImportSyntaxError(position: here, message: message) }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\n"): i += 1; line += 1; lineStart = i
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): i += 1
            default: return
            }
        }
    }
}
