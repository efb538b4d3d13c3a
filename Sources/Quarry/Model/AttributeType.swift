/// The storage type of an attribute, matching Core Data's attribute types.
///
/// Raw values are the names Xcode writes in `attributeType="…"`, so a model file made for
/// Apple's Core Data maps one to one. `transformable` stores a JSON value (Quarry's stand-in for
/// Core Data's value transformers).
public enum AttributeType: String, Codable, Sendable, CaseIterable, Hashable {
    /// A 16-bit signed integer.
    case integer16 = "Integer 16"
    /// A 32-bit signed integer.
    case integer32 = "Integer 32"
    /// A 64-bit signed integer.
    case integer64 = "Integer 64"
    /// An exact decimal number (`Foundation.Decimal`).
    case decimal = "Decimal"
    /// A 64-bit floating-point number.
    case double = "Double"
    /// A 32-bit floating-point number (stored as a double).
    case float = "Float"
    /// A Unicode string.
    case string = "String"
    /// A Boolean.
    case boolean = "Boolean"
    /// A point in time.
    case date = "Date"
    /// Raw bytes.
    case binary = "Binary"
    /// A UUID.
    case uuid = "UUID"
    /// A URL.
    case uri = "URI"
    /// A JSON-transformable value (dictionaries, arrays, scalars), stored as JSON text.
    case transformable = "Transformable"
    /// Xcode's "Undefined" type (also what a missing `attributeType` means): allowed only on
    /// transient attributes, which hold any value in memory and are never stored.
    case undefined = "Undefined"

    /// Whether values of this type are integers (and so compare as integers).
    public var isInteger: Bool {
        switch self {
        case .integer16, .integer32, .integer64: return true
        default: return false
        }
    }

    /// Whether values of this type are numbers of any kind.
    public var isNumeric: Bool {
        isInteger || self == .decimal || self == .double || self == .float
    }

    /// The inclusive range an integer type can hold.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: return Int64(Int16.min)...Int64(Int16.max)
        case .integer32: return Int64(Int32.min)...Int64(Int32.max)
        case .integer64: return Int64.min...Int64.max
        default: return nil
        }
    }
}
