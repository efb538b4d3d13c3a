import Foundation

/// A JSON document: the value of a `transformable` attribute.
///
/// In memory a transformable value is JSON-shaped; what a store keeps is what the attribute's
/// ``AttributeTransformer`` makes of it (a binary property list by default, see
/// ``PropertyListTransformer``; canonical JSON text, sorted keys, when no transformer can take it).
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// JSON `null`.
    case null
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON number.
    case number(Double)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object.
    case object([String: JSONValue])

    /// Decodes a value from JSON text.
    /// - Throws: ``QuarryError/invalidValue(_:)`` when the text is not JSON.
    public init(jsonText: String) throws {
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: Data(jsonText.utf8))
        } catch {
            throw QuarryError.invalidValue("not valid JSON: \(jsonText.prefix(60))")
        }
    }

    /// Canonical JSON text (keys sorted, no extra white space).
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // JSONEncoder cannot fail on a JSONValue (finite numbers, strings, arrays, objects).
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    public var description: String { jsonText }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) { // not this kind: try the next (the last branch throws)
            self = .bool(b)
        } else if let n = try? container.decode(Double.self) { // not this kind: try the next (the last branch throws)
            self = .number(n)
        } else if let s = try? container.decode(String.self) { // not this kind: try the next (the last branch throws)
            self = .string(s)
        } else if let a = try? container.decode([JSONValue].self) { // not this kind: try the next (the last branch throws)
            self = .array(a)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let n): try container.encode(n)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}
