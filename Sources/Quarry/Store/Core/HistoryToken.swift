/// A position in a store's persistent history: every save appends one transaction with the
/// next token, so tokens only grow (never reused, also after pruning).
public struct HistoryToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The transaction's number (`Z_TOKEN`).
    public var value: Int64

    /// A token of number `value`.
    public init(_ value: Int64) { self.value = value }

    /// Whether `lhs` was recorded before `rhs`.
    public static func < (lhs: HistoryToken, rhs: HistoryToken) -> Bool { lhs.value < rhs.value }

    public var description: String { String(value) }
}
