import Foundation

/// How attribute values are written in a JSON store's entity files.
///
/// Integers and doubles are JSON numbers (a non-finite double is the string `"NaN"`,
/// `"Infinity"` or `"-Infinity"`); decimals are strings of their exact digits; dates are
/// ``JSONStoreDate`` strings; binary data is base64; UUIDs and URIs are strings; a transformable
/// value is its JSON, nested as is. A `nil` value is left out of the object.
enum JSONStoreValue {
    /// The JSON text of `value`.
    static func encode(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .integer(let v): return String(v)
        case .double(let d):
            if d.isNaN { return "\"NaN\"" }
            if d.isInfinite { return d > 0 ? "\"Infinity\"" : "\"-Infinity\"" }
            return JSONModelValues.number(d)
        case .decimal(let d): return JSONModelValues.quoted(d.description)
        case .string(let s): return JSONModelValues.quoted(s)
        case .bool(let b): return b ? "true" : "false"
        case .date(let d): return JSONModelValues.quoted(JSONStoreDate.format(d))
        case .data(let d): return JSONModelValues.quoted(d.base64EncodedString())
        case .uuid(let u): return JSONModelValues.quoted(u.uuidString)
        case .uri(let u): return JSONModelValues.quoted(u.absoluteString)
        case .json(let j): return j.jsonText
        }
    }

    /// Reads `node` as a value of `attribute` (of `entity`), from `file`.
    /// - Throws: ``JSONStoreError/malformedFile(path:line:column:reason:)`` naming the entity and attribute.
    static func decode(_ node: JSONDocument.Node, attribute: AttributeDescription, entity: String,
                       file: JSONStoreFileText) throws -> Value {
        let type = attribute.type
        func fault(_ what: String) -> JSONStoreError {
            file.fault(node, "\(entity).\(attribute.name) (\(type.rawValue)): \(what)")
        }
        func expected(_ what: String) -> JSONStoreError { fault("expected \(what), found \(node.typeName)") }
        if case .null = node.kind, type != .transformable { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            guard case .number(let text) = node.kind else { throw expected("an integer") }
            guard let v = Int64(text), type.integerRange!.contains(v) else { throw fault("\(text) is not a \(type.rawValue) value") }
            return .integer(v)
        case .double, .float:
            switch node.kind {
            case .number(let text): return .double(Double(text) ?? .nan)
            case .string("NaN"): return .double(.nan)
            case .string("Infinity"): return .double(.infinity)
            case .string("-Infinity"): return .double(-.infinity)
            default: throw expected("a number")
            }
        case .decimal:
            switch node.kind {
            case .string(let text), .number(let text):
                guard let d = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), "\(d)" != "NaN" else {
                    throw fault("'\(text)' is not a decimal number")
                }
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
            guard case .string(let s) = node.kind else { throw expected("a date string (yyyy-mm-dd hh:mm:ss ±hhmm)") }
            guard let d = JSONStoreDate.parse(s) else { throw fault("'\(s)' is not a date of the form yyyy-mm-dd hh:mm:ss ±hhmm") }
            return .date(d)
        case .binary:
            guard case .string(let s) = node.kind else { throw expected("a base64 string") }
            guard let d = Data(base64Encoded: s) else { throw fault("'\(s.prefix(40))' is not base64") }
            return .data(d)
        case .uuid:
            guard case .string(let s) = node.kind else { throw expected("a UUID string") }
            guard let u = UUID(uuidString: s) else { throw fault("'\(s)' is not a UUID") }
            return .uuid(u)
        case .uri:
            guard case .string(let s) = node.kind else { throw expected("a URI string") }
            guard let u = URL(string: s) else { throw fault("'\(s)' is not a URI") }
            return .uri(u)
        case .transformable:
            return .json(JSONModelValues.jsonValue(node))
        case .undefined:
            throw fault("an Undefined attribute is transient and never stored")
        }
    }
}
