import Foundation

/// Why one field cannot become its attribute's value (the caller adds file, line and column).
struct ImportFieldProblem: Error {
    var message: String
}

/// Turns the text or JSON of one field into a ``Value`` of an attribute's type.
///
/// Text (CSV fields, JSON strings, JSON number text): integers are decimal digits with an
/// optional sign, range-checked per width; doubles as Swift's `Double(_:)` reads them (finite
/// only); decimals exactly (`Decimal`, never through a double); booleans `true/false/1/0/yes/no`
/// in any case; dates per ``ImportDateParser``; UUIDs; URIs as `URL(string:)` accepts them;
/// binary as base64; transformable as JSON text. JSON values are typed: numbers for numeric
/// attributes (a decimal also takes a string), booleans for Boolean, strings for the rest, and
/// any JSON value for a transformable attribute.
enum ImportValueParser {
    /// The value of `text` for an attribute of `type`.
    static func value(text: UnsafeRawBufferPointer, as type: AttributeType) throws(ImportFieldProblem) -> Value {
        switch type {
        case .integer16, .integer32, .integer64:
            guard let v = integer(text) else { throw problem(text, "is not an integer") }
            let range = type.integerRange!
            guard range.contains(v) else {
                throw problem(text, "is out of range for \(type.rawValue) (\(range.lowerBound)…\(range.upperBound))")
            }
            return .integer(v)
        case .double, .float:
            guard let d = double(text), d.isFinite else { throw problem(text, "is not a number") }
            if type == .float {
                guard Float(d).isFinite else { throw problem(text, "is out of range for Float") }
                return .double(Double(Float(d)))
            }
            return .double(d)
        case .decimal:
            guard isDecimalText(text), let d = ScaledDecimal(string: string(text) ?? "") else {
                throw problem(text, "is not a decimal number")
            }
            return .decimal(d)
        case .string:
            guard let s = string(text) else { throw ImportFieldProblem(message: "is not valid UTF-8") }
            return .string(s)
        case .boolean:
            guard let b = boolean(text) else { throw problem(text, "is not a Boolean (true/false, 1/0, yes/no)") }
            return .bool(b)
        case .date:
            guard let d = ImportDateParser.date(text) else { throw problem(text, "is not an ISO 8601 date (YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH:MM])") }
            return .date(d)
        case .uuid:
            guard let s = string(text), let u = UUID(uuidString: s) else { throw problem(text, "is not a UUID") }
            return .uuid(u)
        case .uri:
            guard let s = string(text), !s.isEmpty, let u = URL(string: s) else { throw problem(text, "is not a URI") }
            return .uri(u)
        case .binary:
            guard let s = string(text), let d = Data(base64Encoded: s) else { throw problem(text, "is not base64") }
            return .data(d)
        case .transformable:
            // Not JSON is reported right here, naming the text.
            guard let s = string(text), let j = try? JSONValue(jsonText: s) else { throw problem(text, "is not JSON") }
            return .json(j)
        case .undefined:
            throw ImportFieldProblem(message: "has an undefined type and cannot be imported")
        }
    }

    /// The value of a JSON member for an attribute of `type`.
    static func value(json cell: ImportCellValue, bytes: UnsafeRawBufferPointer, as type: AttributeType) throws(ImportFieldProblem) -> Value {
        switch cell {
        case .null: return .null
        case .bool(let b):
            if type == .boolean { return .bool(b) }
            if type == .transformable { return .json(.bool(b)) }
            throw ImportFieldProblem(message: "expected \(expectation(type)), got a Boolean")
        case .number(let start, let end):
            let text = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            if type.isNumeric { return try value(text: text, as: type) }
            if type == .transformable { return .json(.number(double(text) ?? 0)) }
            throw ImportFieldProblem(message: "expected \(expectation(type)), got a number")
        case .string(let s):
            if type == .transformable { return .json(.string(s)) }
            guard !type.isNumeric || type == .decimal, type != .boolean else {
                throw ImportFieldProblem(message: "expected \(expectation(type)), got a string")
            }
            var s = s
            return try s.withUTF8 { buffer in Result { () throws(ImportFieldProblem) in try value(text: UnsafeRawBufferPointer(buffer), as: type) } }.get()
        case .structured(let j):
            if type == .transformable { return .json(j) }
            throw ImportFieldProblem(message: "expected \(expectation(type)), got \(j.isArray ? "an array" : "an object")")
        case .text:
            preconditionFailure("CSV text reached the JSON conversion")
        }
    }

    private static func expectation(_ type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float: return "a number (\(type.rawValue))"
        case .boolean: return "true or false"
        default: return "a string (\(type.rawValue))"
        }
    }

    private static func problem(_ text: UnsafeRawBufferPointer, _ what: String) -> ImportFieldProblem {
        // A field's line breaks are shown as \n and \r: a `FILE:LINE:COLUMN: message` report
        // stays one line per bad row.
        let shown = String(decoding: text.prefix(60), as: UTF8.self)
            .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
        return ImportFieldProblem(message: "'\(shown)\(text.count > 60 ? "…" : "")' \(what)")
    }

    // MARK: Scalars from bytes

    /// Validated UTF-8 text.
    static func string(_ text: UnsafeRawBufferPointer) -> String? {
        // ASCII (most data) needs no validation; the generic validating initializer costs more.
        var high: UInt8 = 0
        for b in text { high |= b }
        return high < 0x80 ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
    }

    /// A decimal integer with an optional sign; `nil` on anything else or on Int64 overflow.
    static func integer(_ text: UnsafeRawBufferPointer) -> Int64? {
        var i = 0
        var negative = false
        if i < text.count, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") { negative = text[i] == UInt8(ascii: "-"); i += 1 }
        guard i < text.count else { return nil }
        // Accumulate negatively so Int64.min parses.
        var v: Int64 = 0
        while i < text.count {
            let b = text[i]
            guard b >= 48, b <= 57 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(Int64(b - 48))
            guard !o1, !o2 else { return nil }
            v = s
            i += 1
        }
        if negative { return v }
        return v == .min ? nil : -v
    }

    /// A floating-point number as `Double(_:)` reads it (short texts need no heap allocation).
    static func double(_ text: UnsafeRawBufferPointer) -> Double? {
        guard !text.isEmpty, text.count < 400 else { return nil }
        return Double(String(decoding: text, as: UTF8.self))
    }

    static func boolean(_ text: UnsafeRawBufferPointer) -> Bool? {
        // The word packed into an integer, letters lower-cased, compared with each spelling.
        guard text.count <= 5 else { return nil }
        var word: UInt64 = 0
        for b in text {
            guard b >= 0x30 else { return nil }
            word = word << 8 | UInt64(b | 0x20)
        }
        switch word {
        case 0x7472_7565, 0x79_6573, 0x31: return true        // true, yes, 1
        case 0x66_616C_7365, 0x6E6F, 0x30: return false       // false, no, 0
        default: return nil
        }
    }

    /// `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5` and `5.`): what a decimal column holds.
    private static func isDecimalText(_ text: UnsafeRawBufferPointer) -> Bool {
        var c = ImportByteCursor(text)
        _ = c.skip("-") || c.skip("+")
        var count = c.digits()
        if c.skip(".") { count += c.digits() }
        guard count > 0 else { return false }
        if c.skip("e") || c.skip("E") {
            _ = c.skip("-") || c.skip("+")
            guard c.digits() > 0 else { return false }
        }
        return c.atEnd
    }
}

private extension JSONValue {
    var isArray: Bool { if case .array = self { return true }; return false }
}
