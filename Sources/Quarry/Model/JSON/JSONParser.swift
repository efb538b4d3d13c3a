/// A small strict JSON parser (RFC 8259) over UTF-8 bytes that reports the byte offset of the
/// first fault. `JSONSerialization` gives no position, and the model loader must name the line
/// and column of a syntax error.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 512

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one value followed only by white space.
    mutating func parseDocument() throws -> JSONDocument.Node {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw fault("unexpected text after the JSON value") }
        return value
    }

    private func fault(_ reason: String, at offset: Int? = nil) -> JSONDocument.SyntaxError {
        JSONDocument.SyntaxError(offset: offset ?? index, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let c = current, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { index += 1 }
    }

    private mutating func expect(_ c: UInt8, _ what: String) throws {
        guard current == c else { throw fault(current == nil ? "unexpected end of file, expected \(what)" : "expected \(what)") }
        index += 1
    }

    private mutating func parseValue() throws -> JSONDocument.Node {
        let start = index
        guard let c = current else { throw fault("unexpected end of file, expected a value") }
        let kind: JSONDocument.Node.Kind
        switch c {
        case UInt8(ascii: "{"): kind = try parseObject()
        case UInt8(ascii: "["): kind = try parseArray()
        case UInt8(ascii: "\""): kind = .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); kind = .bool(true)
        case UInt8(ascii: "f"): try literal("false"); kind = .bool(false)
        case UInt8(ascii: "n"): try literal("null"); kind = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = .number(try parseNumber())
        default:
            throw fault("unexpected character '\(Character(Unicode.Scalar(c)))', expected a value")
        }
        return JSONDocument.Node(kind: kind, offset: start, end: index)
    }

    private mutating func literal(_ word: String) throws {
        for b in word.utf8 {
            guard current == b else { throw fault("invalid literal, expected '\(word)'") }
            index += 1
        }
    }

    private mutating func nest() throws {
        depth += 1
        if depth > Self.maximumDepth { throw fault("nesting too deep") }
    }

    /// Up to this many members, a new key is checked against the others one by one.
    static let linearKeyCheckLimit = 16

    private mutating func parseObject() throws -> JSONDocument.Node.Kind {
        try nest()
        defer { depth -= 1 }
        index += 1
        var members: [(key: String, keyOffset: Int, value: JSONDocument.Node)] = []
        // Duplicate keys: a look along the few members of a small object (a store's objects
        // are small and many), a set once an object grows.
        var keys: [String] = []
        var seen = Set<String>()
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            let keyOffset = index
            guard current == UInt8(ascii: "\"") else {
                throw fault(current == nil ? "unexpected end of file, expected a key" : "expected a quoted key")
            }
            let key = try parseString()
            let duplicate: Bool
            if keys.count < Self.linearKeyCheckLimit {
                duplicate = keys.contains(key)
            } else {
                if seen.isEmpty { seen = Set(keys) }
                duplicate = !seen.insert(key).inserted
            }
            keys.append(key)
            guard !duplicate else { throw fault("duplicate key '\(key)'", at: keyOffset) }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after key")
            skipWhitespace()
            let value = try parseValue()
            members.append((key, keyOffset, value))
            skipWhitespace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            return .object(members)
        }
    }

    private mutating func parseArray() throws -> JSONDocument.Node.Kind {
        try nest()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONDocument.Node] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if current == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return .array(elements)
        }
    }

    private mutating func parseNumber() throws -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw fault("invalid number") }
        index += 1
        if first != UInt8(ascii: "0") { while let c = current, isDigit(c) { index += 1 } }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let c = current, isDigit(c) else { throw fault("invalid number: digits expected after '.'") }
            while let c = current, isDigit(c) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let c = current, isDigit(c) else { throw fault("invalid number: digits expected in exponent") }
            while let c = current, isDigit(c) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    private mutating func parseString() throws -> String {
        index += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard let c = current else { throw fault("unterminated string") }
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard let e = current else { throw fault("unterminated string") }
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out.append(contentsOf: try parseUnicodeEscape())
                default: throw fault("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: index - 2)
                }
            case 0..<0x20:
                throw fault("control character in string")
            default:
                out.append(c)
                index += 1
            }
        }
    }

    private mutating func hex4() throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let c = current, let d = hexValue(c) else { throw fault("invalid \\u escape") }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    private func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func parseUnicodeEscape() throws -> [UInt8] {
        let start = index - 2
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw fault("unpaired surrogate in \\u escape", at: start)
            }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fault("unpaired surrogate in \\u escape", at: start) }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
            throw fault("unpaired surrogate in \\u escape", at: start)
        }
        return Array(String(Character(Unicode.Scalar(code)!)).utf8)
    }
}
