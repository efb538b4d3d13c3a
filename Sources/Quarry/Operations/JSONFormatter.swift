/// Writes an export as JSON: one object per record, as JSON Lines or as one JSON array.
///
/// Each record is a JSON object whose keys are the column headers, in column order. Numbers
/// and booleans are JSON numbers and booleans (decimals with all their digits; non-finite
/// doubles as `null`); nil is `null`; strings, dates (ISO 8601, UTC), binary data (base64),
/// UUIDs and URIs are strings; transformable values are embedded as the JSON they hold. A path
/// across a to-many is an array of the values, or its count (``ExportColumn/ToManyStyle``).
///
/// ```swift
/// let lines = JSONFormatter(layout: .lines, columns: ["symbol", "sector.name"])
/// // {"symbol":"AAPL","sector.name":"Tech"}
/// ```
public struct JSONFormatter: ValueRowFormatter {
    /// How records are laid out.
    public enum Layout: Sendable, Hashable {
        /// JSON Lines: one object per line, nothing around them.
        case lines
        /// One JSON array holding every object (one per line), `[]` when there are none.
        case array
    }

    /// The layout.
    public var layout: Layout
    /// The columns to write, in order; `nil` for every stored attribute in the entity's order (by name).
    public var columns: [ExportColumn]?

    private var resolved: ResolvedExportColumns?
    /// Each column's header as an escaped JSON key followed by `:`, built once.
    private var keys: [[UInt8]] = []
    private var written = 0

    /// A JSON formatter with `layout` for `columns` (every stored attribute when `nil`).
    public init(layout: Layout, columns: [ExportColumn]? = nil) {
        self.layout = layout
        self.columns = columns
    }

    public mutating func prepare(for entity: EntityDescription, model: ManagedObjectModel) throws {
        let resolved = try ResolvedExportColumns(columns, entity: entity, model: model)
        prepare(headers: resolved.columns.map(\.header))
        self.resolved = resolved
    }

    public mutating func prepare(headers: [String]) {
        resolved = nil
        keys = headers.map { header in
            var key: [UInt8] = []
            Self.appendString(header.utf8, to: &key)
            key.append(UInt8(ascii: ":"))
            return key
        }
        written = 0
    }

    public var prefetchKeyPaths: [String] { resolved?.prefetchKeyPaths ?? [] }

    public func header(into output: inout [UInt8]) {
        if layout == .array { output.append(UInt8(ascii: "[")) }
    }

    public var valueKeyPaths: [String]? { resolved?.valueKeyPaths }

    public mutating func format(_ object: ManagedObject, into output: inout [UInt8]) throws {
        guard let resolved else { return }
        beginRecord(into: &output)
        for i in resolved.columns.indices {
            if i > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: keys[i])
            switch try resolved.cell(i, of: object) {
            case .single(let value):
                Self.appendValue(value, to: &output)
            case .count(let n):
                ExportValueText.appendInteger(Int64(n), to: &output)
            case .many(let values):
                output.append(UInt8(ascii: "["))
                for (n, value) in values.enumerated() {
                    if n > 0 { output.append(UInt8(ascii: ",")) }
                    Self.appendValue(value, to: &output)
                }
                output.append(UInt8(ascii: "]"))
            }
        }
        endRecord(into: &output)
    }

    public mutating func format(values: [Value], into output: inout [UInt8]) throws {
        beginRecord(into: &output)
        for (i, value) in values.enumerated() {
            if i > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: keys[i])
            Self.appendValue(value, to: &output)
        }
        endRecord(into: &output)
    }

    private func beginRecord(into output: inout [UInt8]) {
        if layout == .array { output.append(contentsOf: written == 0 ? [UInt8(ascii: "\n")] : [UInt8(ascii: ","), UInt8(ascii: "\n")]) }
        output.append(UInt8(ascii: "{"))
    }

    private mutating func endRecord(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "}"))
        if layout == .lines { output.append(UInt8(ascii: "\n")) }
        written += 1
    }

    public func footer(into output: inout [UInt8]) {
        guard layout == .array else { return }
        output.append(contentsOf: written == 0 ? Array("]\n".utf8) : Array("\n]\n".utf8))
    }

    /// Appends `value` as a JSON value.
    static func appendValue(_ value: Value, to output: inout [UInt8]) {
        switch value {
        case .null:
            output.append(contentsOf: nullBytes)
        case .integer, .bool:
            ExportValueText.append(value, to: &output)
        case .double(let v):
            if v.isFinite { ExportValueText.append(value, to: &output) } else { output.append(contentsOf: nullBytes) }
        case .decimal(let v):
            if v.isNaN { output.append(contentsOf: nullBytes) } else { ExportValueText.append(value, to: &output) }
        case .json(let v):
            output.append(contentsOf: v.jsonText.utf8)
        case .string(let s):
            appendString(s.utf8, to: &output)
        case .date, .data, .uuid, .uri:
            var text: [UInt8] = []
            ExportValueText.append(value, to: &text)
            appendString(text, to: &output)
        }
    }

    private static let nullBytes = Array("null".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string literal (quotes, backslashes and control characters escaped).
    static func appendString<S: Sequence<UInt8>>(_ text: S, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0xF)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
