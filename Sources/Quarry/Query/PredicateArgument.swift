/// An argument for a `%@` or `%K` placeholder of ``ObjectPredicate/init(format:_:)``.
///
/// Literals convert: `ObjectPredicate(format: "price > %@ AND symbol IN %@", 10, ["A", "B"])`.
public enum PredicateArgument: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    /// One value (also a key path string, for `%K`).
    case value(Value)
    /// A list of values (for `IN` and `BETWEEN`).
    case list([Value])

    public init(stringLiteral s: String) { self = .value(.string(s)) }
    public init(integerLiteral i: Int64) { self = .value(.integer(i)) }
    public init(floatLiteral d: Double) { self = .value(.double(d)) }
    public init(booleanLiteral b: Bool) { self = .value(.bool(b)) }
    public init(nilLiteral: ()) { self = .value(.null) }
    public init(arrayLiteral elements: PredicateArgument...) {
        self = .list(elements.compactMap { if case .value(let v) = $0 { return v } else { return nil } })
    }
}
