import Foundation

/// The value of one attribute of one object.
///
/// `Value` is the engine's currency: snapshots, change sets, predicates and stores all speak it.
/// Typed code uses ``ManagedObject`` accessors or the ``Attribute`` property wrapper instead.
public enum Value: Sendable, Hashable, CustomStringConvertible {
    /// No value (SQL `NULL`, Swift `nil`).
    case null
    /// Any integer attribute (16, 32 or 64 bits).
    case integer(Int64)
    /// A `Double` or `Float` attribute.
    case double(Double)
    /// A `Decimal` attribute: the number and the digits after its point it was written with.
    case decimal(ScaledDecimal)
    /// A `String` attribute.
    case string(String)
    /// A `Boolean` attribute.
    case bool(Bool)
    /// A `Date` attribute.
    case date(Date)
    /// A `Binary` attribute.
    case data(Data)
    /// A `UUID` attribute.
    case uuid(UUID)
    /// A `URI` attribute.
    case uri(URL)
    /// A `Transformable` (JSON) attribute.
    case json(JSONValue)

    /// A `Decimal` attribute's value written with its own digits (`12.5` for `12.50`): use
    /// ``decimal(_:)-swift.enum.case`` with a ``ScaledDecimal`` to keep trailing zeros.
    @inlinable public static func decimal(_ value: Decimal) -> Value { .decimal(ScaledDecimal(value)) }

    /// Whether this is ``null``.
    @inlinable public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .null: return "nil"
        case .integer(let v): return String(v)
        case .double(let v): return String(v)
        case .decimal(let v): return "\(v)"
        case .string(let v): return "'\(v)'"
        case .bool(let v): return v ? "true" : "false"
        case .date(let v): return ISO8601DateFormatter().string(from: v)
        case .data(let v): return "<\(v.count) bytes>"
        case .uuid(let v): return v.uuidString
        case .uri(let v): return v.absoluteString
        case .json(let v): return v.jsonText
        }
    }

    /// The value as a `Double` when it is numeric (used for min/max validation and comparisons).
    public var numericValue: Double? {
        switch self {
        case .integer(let v): return Double(v)
        case .double(let v): return v
        case .decimal(let v): return NSDecimalNumber(decimal: v.decimal).doubleValue
        case .bool(let v): return v ? 1 : 0
        default: return nil
        }
    }

    /// Converts a loosely typed value to the canonical case for `type`, or `nil` if it cannot.
    ///
    /// Integers widen to doubles and decimals, doubles with no fraction narrow to integers,
    /// strings parse as UUIDs, URLs and JSON; out-of-range integers are refused.
    public func coerced(to type: AttributeType) -> Value? {
        if case .null = self { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            let range = type.integerRange!
            switch self {
            case .integer(let v): return range.contains(v) ? self : nil
            case .bool(let b): return .integer(b ? 1 : 0)
            case .double(let d):
                guard d.rounded() == d, let v = Int64(exactly: d), range.contains(v) else { return nil }
                return .integer(v)
            case .decimal(let d):
                let n = NSDecimalNumber(decimal: d.decimal)
                guard let v = Int64(exactly: n.doubleValue), range.contains(v) else { return nil }
                return .integer(v)
            default: return nil
            }
        case .double, .float:
            switch self {
            case .double(let d): return type == .float ? .double(Double(Float(d))) : self
            case .integer(let v): return .double(Double(v))
            case .decimal(let d): return .double(NSDecimalNumber(decimal: d.decimal).doubleValue)
            default: return nil
            }
        case .decimal:
            switch self {
            case .decimal: return self
            case .integer(let v): return .decimal(Decimal(v))
            case .double(let d): return Decimal(string: String(d)).map(Value.decimal)
            case .string(let s): return ScaledDecimal(string: s).map(Value.decimal)
            default: return nil
            }
        case .string:
            if case .string = self { return self }
            return nil
        case .boolean:
            switch self {
            case .bool: return self
            case .integer(let v) where v == 0 || v == 1: return .bool(v == 1)
            default: return nil
            }
        case .date:
            switch self {
            case .date: return self
            case .double(let d): return .date(Date(timeIntervalSinceReferenceDate: d))
            default: return nil
            }
        case .binary:
            if case .data = self { return self }
            return nil
        case .uuid:
            switch self {
            case .uuid: return self
            case .string(let s): return UUID(uuidString: s).map(Value.uuid)
            default: return nil
            }
        case .uri:
            switch self {
            case .uri: return self
            case .string(let s): return URL(string: s).map(Value.uri)
            default: return nil
            }
        case .undefined:
            // Undefined (transient-only) attributes hold whatever they are given.
            return self
        case .transformable:
            switch self {
            case .json: return self
            case .string(let s): return .json(.string(s))
            case .integer(let v): return .json(.number(Double(v)))
            case .double(let v): return .json(.number(v))
            case .bool(let v): return .json(.bool(v))
            default: return nil
            }
        }
    }
}
