import Foundation

/// How attribute values are written in a JSON store's entity files.
///
/// Integers and doubles are JSON numbers (a non-finite double is the string `"NaN"`,
/// `"Infinity"` or `"-Infinity"`); decimals are strings of their exact digits; dates are
/// ``JSONStoreDate`` strings (seconds since 2001 as a number outside the years 0001–9999); binary data is base64; UUIDs and URIs are strings; a transformable
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
        case .date(let d):
            // Years the form cannot hold (before 0001, after 9999) are seconds since 2001 instead.
            let text = JSONStoreDate.format(d)
            return JSONStoreDate.parse(text) == d ? JSONModelValues.quoted(text) : JSONModelValues.number(d.timeIntervalSinceReferenceDate)
        case .data(let d): return JSONModelValues.quoted(d.base64EncodedString())
        case .uuid(let u): return JSONModelValues.quoted(u.uuidString)
        case .uri(let u): return JSONModelValues.quoted(u.absoluteString)
        case .json(let j): return j.jsonText
        }
    }

    /// Reads `node` as a value of `attribute` (of `entity`), from `file`: the JSON model's
    /// reading of default values (``JSONModelValues``), except for dates (the store's form),
    /// non-finite doubles and a transformable's JSON `null`.
    /// - Throws: ``JSONStoreError/malformedFile(path:line:column:reason:)`` naming the entity and attribute.
    static func decode(_ node: JSONDocument.Node, attribute: AttributeDescription, entity: String,
                       file: JSONStoreFileText) throws -> Value {
        let type = attribute.type
        func fault(_ what: String) -> JSONStoreError {
            file.fault(node, "\(entity).\(attribute.name) (\(type.rawValue)): \(what)")
        }
        switch (type, node.kind) {
        case (.transformable, _): return .json(JSONModelValues.jsonValue(node))
        case (_, .null): return .null
        case (.double, .string(let s)), (.float, .string(let s)):
            guard let special = ["NaN": Double.nan, "Infinity": .infinity, "-Infinity": -.infinity][s] else {
                throw fault("expected a number, found a string")
            }
            return .double(special)
        case (.date, .string(let s)):
            guard let d = JSONStoreDate.parse(s) else { throw fault("'\(s)' is not a date of the form yyyy-mm-dd hh:mm:ss ±hhmm or yyyy-mm-dd") }
            return .date(d)
        case (.date, .number): break
        case (.date, _): throw fault("expected a date string (yyyy-mm-dd hh:mm:ss ±hhmm), found \(node.typeName)")
        case (.undefined, _): throw fault("an Undefined attribute is transient and never stored")
        default: break
        }
        do {
            return try JSONModelValues.decodeDefault(node, type: type) {
                ModelError.malformedFile(path: file.path, line: 0, column: 0, reason: $0)
            }
        } catch ModelError.malformedFile(_, _, _, let reason) {
            throw fault(reason)
        }
    }
}
