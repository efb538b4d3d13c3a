/// Where something starts in an import file: its physical line and byte offsets.
///
/// Readers track byte offsets only; the character column is worked out when an error needs it,
/// so clean rows pay nothing for positions.
struct ImportPosition: Sendable, Equatable {
    /// The 1-based physical line.
    var line: Int
    /// The byte offset where that line starts.
    var lineStart: Int
    /// The byte offset where the field or value starts.
    var offset: Int

    /// The 1-based character column in `bytes` (UTF-8 continuation bytes do not count).
    func column(in bytes: UnsafeRawBufferPointer) -> Int {
        var column = 1
        var i = lineStart
        while i < offset && i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return column
    }
}

/// One field of one record as the reader found it, before it is converted to a ``Value``.
enum ImportCellValue {
    /// A CSV field: bytes `start..<end` of the file (inside the quotes when `quoted`);
    /// `doubledQuotes` says that `""` pairs inside must become `"`.
    case text(start: Int, end: Int, quoted: Bool, doubledQuotes: Bool)
    /// JSON `null`.
    case null
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON number: bytes `start..<end` of the file (kept as text so integers and decimals stay exact).
    case number(start: Int, end: Int)
    /// A JSON string, unescaped.
    case string(String)
    /// A JSON array or object (only a transformable attribute takes one).
    case structured(JSONValue)
}

/// One field of a record: which column it belongs to, its value and where it starts.
struct ImportCell {
    /// The column's index in the reader's ``ImportRecordReader/columnNames``.
    var column: Int
    var value: ImportCellValue
    var position: ImportPosition
}

/// One record (a CSV row or a JSON object). Readers refill the same record to save allocations.
struct ImportRecord {
    var cells: [ImportCell] = []
    /// Where the record starts.
    var position = ImportPosition(line: 1, lineStart: 0, offset: 0)
}

/// A malformed record or file (a row with the wrong number of fields, a stray quote, a JSON
/// syntax error).
struct ImportSyntaxError: Error {
    var position: ImportPosition
    var message: String
    /// Whether the reader has moved past the bad record and can read the next one, so the
    /// validation pass goes on and reports every bad row; `false`: reading stops here.
    var isResumable = false
}

/// Reads records one at a time from a file's bytes (bounded memory at any file size).
protocol ImportRecordReader {
    /// The column names seen so far (CSV: the header; JSON: keys in order of first appearance).
    var columnNames: [String] { get }
    /// Where each of ``columnNames`` was first seen (CSV: the header field).
    var columnPositions: [ImportPosition] { get }
    /// Whether every record has the same columns (CSV), so coverage is checked once on the header.
    var hasFixedColumns: Bool { get }
    /// Fills `record` with the next record; `false` at the end of the file.
    /// - Throws: ``ImportSyntaxError`` when the file is malformed at that point; when the error
    ///   is resumable the reader stands after the bad record, so calling again reads on.
    mutating func next(into record: inout ImportRecord) throws(ImportSyntaxError) -> Bool
}
