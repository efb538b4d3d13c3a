/// A stored value that does not have its column's type (a column another program wrote, or
/// altered): reading it fails, naming the column, instead of reading as `NULL`.
public struct ColumnDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The column, as the query named it.
    public var column: String
    /// What the model expects there (`integer`, `string`, …).
    public var expected: String
    /// What went wrong, in the driver's words.
    public var reason: String

    /// The error for `column`, expected to hold `expected`.
    public init(column: String, expected: String, reason: String) {
        self.column = column
        self.expected = expected
        self.reason = reason
    }

    public var description: String { "column \"\(column)\" does not hold a\(expected.first.map { "aeiou".contains($0) } == true ? "n" : "") \(expected) value: \(reason)" }
}
