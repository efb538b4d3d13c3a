/// Writes an export as CSV (RFC 4180): a header row, then one row per object.
///
/// Fields holding a comma, a double quote, a line break, or a leading or trailing space are
/// quoted, with quotes doubled; rows end with CRLF (RFC 4180) unless ``lineEnding`` says
/// otherwise. Values are written as ``Value/exportText`` gives them: nil as an empty field,
/// dates ISO 8601 in UTC, decimals exact, binary base64. Related key paths read through
/// to-ones (`sector.name`); a path across a to-many is written as its count or as the values
/// joined into one field (``ExportColumn/ToManyStyle``).
///
/// ```swift
/// let csv = CSVFormatter(columns: ["symbol", "price", "sector.name",
///                                  ExportColumn("tags.label", toMany: .joined(separator: "|"))])
/// ```
public struct CSVFormatter: ValueRowFormatter {
    /// The columns to write, in order (the whitelist); `nil` for every stored attribute of
    /// the entity in the entity's order (by name).
    public var columns: [ExportColumn]?
    /// Whether the first row names the columns (default `true`).
    public var includesHeader: Bool
    /// What ends each row (default `"\r\n"`, as RFC 4180 says).
    public var lineEnding: String

    private var resolved: ResolvedExportColumns?
    /// The header row's names.
    private var headers: [String] = []
    private var field: [UInt8] = []

    /// A CSV formatter for `columns` (every stored attribute when `nil`).
    public init(columns: [ExportColumn]? = nil, includesHeader: Bool = true, lineEnding: String = "\r\n") {
        self.columns = columns
        self.includesHeader = includesHeader
        self.lineEnding = lineEnding
    }

    public mutating func prepare(for entity: EntityDescription, model: ManagedObjectModel) throws {
        let resolved = try ResolvedExportColumns(columns, entity: entity, model: model)
        self.resolved = resolved
        headers = resolved.columns.map(\.header)
    }

    public mutating func prepare(headers: [String]) {
        resolved = nil
        self.headers = headers
    }

    public var prefetchKeyPaths: [String] { resolved?.prefetchKeyPaths ?? [] }

    public func header(into output: inout [UInt8]) {
        guard includesHeader, !headers.isEmpty else { return }
        for (i, header) in headers.enumerated() {
            if i > 0 { output.append(UInt8(ascii: ",")) }
            Self.appendField(Array(header.utf8), to: &output)
        }
        output.append(contentsOf: lineEnding.utf8)
    }

    public var valueKeyPaths: [String]? { resolved?.valueKeyPaths }

    public mutating func format(_ object: ManagedObject, into output: inout [UInt8]) throws {
        guard let resolved else { return }
        for i in resolved.columns.indices {
            if i > 0 { output.append(UInt8(ascii: ",")) }
            switch try resolved.cell(i, of: object) {
            case .single(let value):
                appendValue(value, to: &output)
            case .count(let n):
                ExportValueText.appendInteger(Int64(n), to: &output)
            case .many(let values):
                guard case .joined(let separator) = resolved.columns[i].toManyStyle else { continue }
                field.removeAll(keepingCapacity: true)
                for (n, value) in values.enumerated() {
                    if n > 0 { field.append(contentsOf: separator.utf8) }
                    ExportValueText.append(value, to: &field)
                }
                Self.appendField(field, to: &output)
            }
        }
        output.append(contentsOf: lineEnding.utf8)
    }

    public mutating func format(values: [Value], into output: inout [UInt8]) throws {
        for (i, value) in values.enumerated() {
            if i > 0 { output.append(UInt8(ascii: ",")) }
            appendValue(value, to: &output)
        }
        output.append(contentsOf: lineEnding.utf8)
    }

    /// Appends one value as a field: only free text is scanned for characters to quote.
    private mutating func appendValue(_ value: Value, to output: inout [UInt8]) {
        if ExportValueText.isFreeText(value) {
            field.removeAll(keepingCapacity: true)
            ExportValueText.append(value, to: &field)
            Self.appendField(field, to: &output)
        } else {
            ExportValueText.append(value, to: &output)
        }
    }

    public func footer(into output: inout [UInt8]) {}

    /// Appends `text` as one field, quoted when RFC 4180 needs it or an edge space would be
    /// lost by readers that trim.
    static func appendField(_ text: [UInt8], to output: inout [UInt8]) {
        guard needsQuotes(text) else { return output.append(contentsOf: text) }
        output.append(UInt8(ascii: "\""))
        for byte in text {
            if byte == UInt8(ascii: "\"") { output.append(byte) }
            output.append(byte)
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func needsQuotes(_ text: [UInt8]) -> Bool {
        guard let first = text.first, let last = text.last else { return false }
        if first == UInt8(ascii: " ") || last == UInt8(ascii: " ") || first == UInt8(ascii: "\t") || last == UInt8(ascii: "\t") { return true }
        return text.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
    }
}
