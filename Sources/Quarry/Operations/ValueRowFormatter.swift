/// An ``EntityFormatter`` that can also make a record from the values of key paths alone.
///
/// When every column has one value per object (attributes, through to-ones, `@count`),
/// ``ExportOperation`` reads those values straight from the store in each batch (one query,
/// related values joined in SQL) and calls ``format(values:into:)`` instead of loading managed
/// objects: the fast path of a large export. A formatter returns `nil` from
/// ``valueKeyPaths`` when it needs objects (a column across a to-many).
public protocol ValueRowFormatter: EntityFormatter {
    /// The key paths ``format(values:into:)`` expects, in order; `nil` when records need
    /// objects. Read after ``EntityFormatter/prepare(for:model:)``.
    var valueKeyPaths: [String]? { get }
    /// Appends the record made of `values` (one per key path of ``valueKeyPaths``, or one per
    /// header given to ``prepare(headers:)``).
    mutating func format(values: [Value], into output: inout [UInt8]) throws
    /// Prepares for records that are not an entity's objects (grouped results): columns
    /// named `headers`, each record's values given in that order. Replaces
    /// ``EntityFormatter/prepare(for:model:)``.
    mutating func prepare(headers: [String])
}
