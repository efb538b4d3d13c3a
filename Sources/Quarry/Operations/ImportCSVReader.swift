/// Reads RFC 4180 CSV from a file's bytes: a header row, then one record per row.
///
/// Byte-level: fields are byte ranges into the file, never copied here. Quoted fields may hold
/// commas, doubled quotes and line breaks; records end with CRLF or LF; a UTF-8 byte-order mark
/// is skipped; blank lines are skipped. A quote inside an unquoted field, text after a closing
/// quote, an unterminated quote and a row whose field count differs from the header's are errors;
/// after each the reader goes on at the next line, so every bad row can be reported.
struct ImportCSVReader: ImportRecordReader {
    private let bytes: UnsafeRawBufferPointer
    private var i = 0
    private var line = 1
    private var lineStart = 0
    private(set) var columnNames: [String] = []
    private(set) var columnPositions: [ImportPosition] = []
    var hasFixedColumns: Bool { true }

    private static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")

    /// Reads the header row.
    /// - Throws: ``ImportSyntaxError`` for an empty file, a malformed header or a repeated or
    ///   empty column name.
    init(bytes: UnsafeRawBufferPointer) throws(ImportSyntaxError) {
        self.bytes = bytes
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3; lineStart = 3 }
        var header = ImportRecord()
        guard try readRecord(into: &header) else {
            throw ImportSyntaxError(position: here, message: "the file is empty: a header row must name the columns")
        }
        var seen = Set<String>()
        for cell in header.cells {
            guard case .text(let start, let end, _, let doubled) = cell.value,
                  let name = String(validating: Self.unescaped(bytes, start, end, doubled), as: UTF8.self) else {
                throw ImportSyntaxError(position: cell.position, message: "column name is not valid UTF-8")
            }
            guard !name.isEmpty else { throw ImportSyntaxError(position: cell.position, message: "column \(cell.column + 1) has no name") }
            guard seen.insert(name).inserted else { throw ImportSyntaxError(position: cell.position, message: "column '\(name)' appears twice in the header") }
            columnNames.append(name)
            columnPositions.append(cell.position)
        }
    }

    mutating func next(into record: inout ImportRecord) throws(ImportSyntaxError) -> Bool {
        let found: Bool
        do {
            found = try readRecord(into: &record)
        } catch {
            skipRestOfLine()
            throw ImportSyntaxError(position: error.position, message: error.message, isResumable: true)
        }
        guard found else { return false }
        if record.cells.count != columnNames.count {
            // The whole row was read: the next one starts where this one ended.
            throw ImportSyntaxError(position: record.position, message: "row has \(record.cells.count) field(s), the header has \(columnNames.count)",
                                    isResumable: true)
        }
        return true
    }

    /// Moves past the line a malformed field is on (always forward, to the end of the file at
    /// the latest), so reading resumes at the next line.
    private mutating func skipRestOfLine() {
        while i < bytes.count, bytes[i] != Self.lf { i += 1 }
        if i < bytes.count { i += 1; line += 1; lineStart = i }
    }

    private var here: ImportPosition { ImportPosition(line: line, lineStart: lineStart, offset: i) }

    private mutating func readRecord(into record: inout ImportRecord) throws(ImportSyntaxError) -> Bool {
        record.cells.removeAll(keepingCapacity: true)
        skipBlankLines()
        guard i < bytes.count else { return false }
        record.position = here
        var column = 0
        while true {
            let position = here
            record.cells.append(ImportCell(column: column, value: try readField(), position: position))
            column += 1
            if i < bytes.count && bytes[i] == Self.comma { i += 1; continue }
            if i < bytes.count && bytes[i] == Self.cr { i += 1 }
            if i < bytes.count && bytes[i] == Self.lf { i += 1; line += 1; lineStart = i }
            return true
        }
    }

    private mutating func skipBlankLines() {
        while i < bytes.count {
            let b = bytes[i]
            if b == Self.lf { i += 1; line += 1; lineStart = i } else if b == Self.cr { i += 1 } else { return }
        }
    }

    private mutating func readField() throws(ImportSyntaxError) -> ImportCellValue {
        let n = bytes.count
        if i < n && bytes[i] == Self.quote {
            let opening = here
            i += 1
            let start = i
            var doubled = false
            while true {
                guard i < n else { throw ImportSyntaxError(position: opening, message: "quoted field is never closed") }
                let b = bytes[i]
                if b == Self.quote {
                    if i + 1 < n && bytes[i + 1] == Self.quote { doubled = true; i += 2; continue }
                    break
                }
                if b == Self.lf { line += 1; lineStart = i + 1 }
                i += 1
            }
            let end = i
            i += 1
            if i < n, bytes[i] != Self.comma, bytes[i] != Self.lf, bytes[i] != Self.cr {
                throw ImportSyntaxError(position: here, message: "unexpected text after a closing quote (quote the whole field and double inner quotes)")
            }
            return .text(start: start, end: end, quoted: true, doubledQuotes: doubled)
        }
        let start = i
        while i < n {
            let b = bytes[i]
            if b == Self.comma || b == Self.lf || b == Self.cr { break }
            if b == Self.quote { throw ImportSyntaxError(position: here, message: "quote inside an unquoted field (quote the whole field and double inner quotes)") }
            i += 1
        }
        return .text(start: start, end: i, quoted: false, doubledQuotes: false)
    }

    /// The field's bytes with doubled quotes made single (a copy only when there are some).
    static func unescaped(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ doubled: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var k = start
        while k < end {
            out.append(bytes[k])
            k += (doubled && bytes[k] == quote) ? 2 : 1
        }
        return out
    }
}
