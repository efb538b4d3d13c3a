extension ExportOperation {
    /// The formatter for a file whose name ends in `pathExtension` (or for a format named so):
    /// `jsonl` JSON Lines, `json` a JSON array, anything else CSV; each writing `columns`
    /// (every stored attribute when `nil`). `quarry export` and the browser's `x` choose this way.
    public static func formatter(forPathExtension pathExtension: String, columns: [ExportColumn]?) -> any ValueRowFormatter {
        switch pathExtension.lowercased() {
        case "jsonl": return JSONFormatter(layout: .lines, columns: columns)
        case "json": return JSONFormatter(layout: .array, columns: columns)
        default: return CSVFormatter(columns: columns)
        }
    }
}
