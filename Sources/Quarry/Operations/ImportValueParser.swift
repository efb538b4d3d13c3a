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
            guard isDecimalText(text), let d = Decimal(string: string(text) ?? "", locale: Locale(identifier: "en_US_POSIX")) else {
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
        let shown = String(decoding: text.prefix(60), as: UTF8.self)
        return ImportFieldProblem(message: "'\(shown)\(text.count > 60 ? "…" : "")' \(what)")
    }

    // MARK: Scalars from bytes

    /// Validated UTF-8 text.
    static func string(_ text: UnsafeRawBufferPointer) -> String? {
        String(validating: text, as: UTF8.self)
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
        func `is`(_ word: String) -> Bool {
            guard text.count == word.utf8.count else { return false }
            for (k, w) in word.utf8.enumerated() where text[k] | 0x20 != w { return false }
            return true
        }
        if text.count == 1 { return text[0] == UInt8(ascii: "1") ? true : text[0] == UInt8(ascii: "0") ? false : nil }
        if `is`("true") || `is`("yes") { return true }
        if `is`("false") || `is`("no") { return false }
        return nil
    }

    /// `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5` and `5.`): what a decimal column holds.
    private static func isDecimalText(_ text: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        let n = text.count
        func digits() -> Int { let s = i; while i < n, text[i] >= 48, text[i] <= 57 { i += 1 }; return i - s }
        if i < n, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") { i += 1 }
        var count = digits()
        if i < n, text[i] == UInt8(ascii: ".") { i += 1; count += digits() }
        guard count > 0 else { return false }
        if i < n, text[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < n, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == n
    }
}

private extension JSONValue {
    var isArray: Bool { if case .array = self { return true }; return false }
}
