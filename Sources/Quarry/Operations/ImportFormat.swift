/// The file formats ``ImportOperation`` reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// RFC 4180 CSV: a header row names the columns; quoted fields may hold commas, doubled
    /// quotes and newlines; CRLF or LF line ends; a UTF-8 byte-order mark is skipped.
    case csv
    /// JSON Lines: one JSON object per line (blank lines are skipped).
    case jsonLines = "jsonl"
    /// One JSON array of objects.
    case json

    /// The format a file name's extension suggests (`csv`, `jsonl`/`ndjson`, `json`), or `nil`.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "csv": self = .csv
        case "jsonl", "ndjson": self = .jsonLines
        case "json": self = .json
        default: return nil
        }
    }
}
