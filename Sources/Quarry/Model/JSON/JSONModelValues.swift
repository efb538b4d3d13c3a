import Foundation

/// How attribute default values are written in a JSON model file, per attribute type.
///
/// Integers and floating-point numbers are JSON numbers; decimals, UUIDs and URIs are strings;
/// dates are ISO-8601 strings (or, when a date has a fraction of a second ISO-8601 would lose,
/// a number of seconds since 2001-01-01 00:00:00 UTC); binary data is a base64 string;
/// transformable defaults are any JSON value. `null` is an explicit null default.
enum JSONModelValues {
    /// Reads the default value `node` for an attribute of `type`.
    static func decodeDefault(
        _ node: JSONDocument.Node, type: AttributeType, fault: (String) -> ModelError
    ) throws -> Value {
        func expected(_ what: String) -> ModelError { fault("expected \(what) for a \(type.rawValue) attribute, found \(node.typeName)") }
        if case .null = node.kind { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            guard case .number(let text) = node.kind else { throw expected("an integer") }
            let value = Int64(text) ?? Double(text).flatMap { Int64(exactly: $0) }
            guard let value, type.integerRange!.contains(value) else { throw fault("\(text) is not a \(type.rawValue) value") }
            return .integer(value)
        case .double, .float:
            guard case .number(let text) = node.kind, let d = Double(text) else { throw expected("a number") }
            return .double(d)
        case .decimal:
            switch node.kind {
            case .number(let text), .string(let text):
                guard let d = ScaledDecimal(string: text) else { throw fault("'\(text)' is not a decimal number") }
                return .decimal(d)
            default: throw expected("a decimal number as a string")
            }
        case .string:
            guard case .string(let s) = node.kind else { throw expected("a string") }
            return .string(s)
        case .boolean:
            guard case .bool(let b) = node.kind else { throw expected("true or false") }
            return .bool(b)
        case .date:
            switch node.kind {
            case .string(let s):
                guard let date = parseDate(s) else { throw fault("'\(s)' is not an ISO-8601 date") }
                return .date(date)
            case .number(let text):
                guard let d = Double(text) else { throw expected("a date") }
                return .date(Date(timeIntervalSinceReferenceDate: d))
            default: throw expected("an ISO-8601 date string")
            }
        case .binary:
            guard case .string(let s) = node.kind else { throw expected("a base64 string") }
            guard let data = Data(base64Encoded: s) else { throw fault("'\(s.prefix(40))' is not base64") }
            return .data(data)
        case .uuid:
            guard case .string(let s) = node.kind else { throw expected("a UUID string") }
            guard let u = UUID(uuidString: s) else { throw fault("'\(s)' is not a UUID") }
            return .uuid(u)
        case .uri:
            guard case .string(let s) = node.kind else { throw expected("a URI string") }
            guard let u = URL(string: s) else { throw fault("'\(s)' is not a URI") }
            return .uri(u)
        case .transformable:
            return .json(jsonValue(node))
        case .undefined:
            throw fault("an Undefined attribute takes no default value")
        }
    }

    /// The JSON text of default `value`.
    static func encodeDefault(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .integer(let v): return String(v)
        case .double(let d): return number(d)
        case .decimal(let d): return quoted(d.description)
        case .string(let s): return quoted(s)
        case .bool(let b): return b ? "true" : "false"
        case .date(let d):
            let text = formatDate(d)
            return parseDate(text) == d ? quoted(text) : number(d.timeIntervalSinceReferenceDate)
        case .data(let d): return quoted(d.base64EncodedString())
        case .uuid(let u): return quoted(u.uuidString)
        case .uri(let u): return quoted(u.absoluteString)
        case .json(let j): return j.jsonText
        }
    }

    /// A JSON number for `d` (integral values without a fraction; non-finite values as null).
    static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }

    /// `s` as a JSON string literal.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `node` as a ``JSONValue`` (also a JSON store's transformable values).
    static func jsonValue(_ node: JSONDocument.Node) -> JSONValue {
        switch node.kind {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let text): return .number(Double(text) ?? 0)
        case .string(let s): return .string(s)
        case .array(let a): return .array(a.map(jsonValue))
        case .object(let members):
            return .object(Dictionary(members.map { ($0.key, jsonValue($0.value)) }, uniquingKeysWith: { a, _ in a }))
        }
    }

    private static func formatDate(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    private static func parseDate(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let d = formatter.date(from: text) { return d }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = formatter.date(from: text) { return d }
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: text)
    }
}
