/// One column of an export: a key path of the exported entity and the name it is written under.
///
/// The key path is an attribute (`symbol`), an attribute through to-ones (`sector.name`), a
/// to-one relationship (its destination's primary key), or a path across one to-many
/// (`tags.label`, `quotes`, `quotes.@count`) whose values are written as ``toMany`` says.
///
/// ```swift
/// let columns: [ExportColumn] = ["symbol", "price", "sector.name",
///                                ExportColumn("tags.label", header: "tags", toMany: .joined(separator: "|")),
///                                ExportColumn("quotes", toMany: .count)]
/// ```
public struct ExportColumn: Sendable, Hashable, ExpressibleByStringLiteral {
    /// How the values of a path across a to-many relationship are written.
    public enum ToManyStyle: Sendable, Hashable {
        /// How many destinations there are (a number).
        case count
        /// The destinations' values in the relationship's order: in CSV joined by `separator`
        /// into one field, in JSON an array.
        case joined(separator: String)
    }

    /// The key path read from each object.
    public var keyPath: String
    /// The header (CSV) or key (JSON) the column is written under; the key path by default.
    public var header: String
    /// How a path across a to-many is written (default: values joined by `;`). A path that
    /// ends on the to-many relationship itself (`quotes`) is always written as its count.
    public var toMany: ToManyStyle

    /// A column for `keyPath`, written under `header` (default: the key path).
    public init(_ keyPath: String, header: String? = nil, toMany: ToManyStyle = .joined(separator: ";")) {
        self.keyPath = keyPath
        self.header = header ?? keyPath
        self.toMany = toMany
    }

    /// A column for the key path `value`.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
