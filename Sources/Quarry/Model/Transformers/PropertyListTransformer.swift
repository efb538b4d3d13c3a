import Foundation

/// The default transformer: stores dictionaries, arrays, strings, numbers and Booleans as a
/// binary property list (na_ios' `NSDictionaryTransformer`). Property lists hold no `null`, so
/// a value containing one cannot be transformed (the store keeps it as JSON text instead).
/// Reading accepts what other property-list writers put in: dates become ISO 8601 strings and
/// data becomes base64 strings.
public struct PropertyListTransformer: AttributeTransformer {
    /// The names it is registered under. The `…TransformerName` ones are the names of the
    /// constants whose values name Core Data's built-in transformers: real models hold the
    /// constant's name where its value belongs (`NSUnarchiveFromDataTransformerName` for
    /// `NSUnarchiveFromData`), a slip read as the transformer meant.
    public static let names = [
        "QuarryPropertyList", "NSDictionaryTransformer",
        "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer", "NSKeyedUnarchiveFromData", "NSUnarchiveFromData",
        "NSSecureUnarchiveFromDataTransformerName", "NSKeyedUnarchiveFromDataTransformerName", "NSUnarchiveFromDataTransformerName",
    ]

    /// Creates the transformer.
    public init() {}

    public func data(from value: JSONValue) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: try Self.plist(value), format: .binary, options: 0)
    }

    public func value(from data: Data) throws -> JSONValue {
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw AttributeTransformError("not a property list (\(data.count) bytes)")
        }
        return try Self.json(plist)
    }

    private static func plist(_ value: JSONValue) throws -> Any {
        switch value {
        case .null: throw AttributeTransformError("a property list holds no null")
        case .bool(let b): return b
        case .number(let n): return n == n.rounded() && abs(n) < 9e15 ? Int(n) as Any : n as Any
        case .string(let s): return s
        case .array(let a): return try a.map(plist)
        case .object(let o): return try o.mapValues(plist)
        }
    }

    private static func json(_ plist: Any) throws -> JSONValue {
        switch plist {
        case let b as Bool where type(of: plist) == Bool.self: return .bool(b)
        case let n as NSNumber:
            // Booleans come back as NSNumber on some Foundations: tell them apart by their type code.
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            return .number(n.doubleValue)
        case let i as Int: return .number(Double(i))
        case let d as Double: return .number(d)
        case let s as String: return .string(s)
        case let a as [Any]: return .array(try a.map(json))
        case let o as [String: Any]: return .object(try o.mapValues(json))
        case let d as Date: return .string(ISO8601DateFormatter().string(from: d))
        case let d as Data: return .string(d.base64EncodedString())
        default: throw AttributeTransformError("a property list value of type \(type(of: plist)) has no JSON form")
        }
    }
}
