/// Records that are not an entity's objects (a grouped fetch's results, a list of changes, a
/// frequency table) written through a ``ValueRowFormatter`` to the destinations of
/// ``ExportOperation``, with the same safety: a file is written beside and renamed onto its
/// destination when complete (nothing is left after an error), a FIFO or a device is written in
/// place, standard output as it goes.
///
/// ```swift
/// try RecordExport.write(headers: ["change", "object"], records: [[.string("inserted"), .string("Ticker ACME")]],
///                        to: .file(url), formatter: CSVFormatter())
/// ```
public enum RecordExport {
    /// Writes `records` (each one value per header, in order) under `headers`; returns how
    /// many records were written.
    /// - Throws: ``ExportError`` for the destination, or the formatter's error (nothing is
    ///   left at a file destination).
    @discardableResult
    public static func write<Records: Sequence<[Value]>>(headers: [String], records: Records,
                                                         to destination: ExportOperation.Destination,
                                                         formatter: some ValueRowFormatter) throws -> Int {
        var formatter = formatter
        formatter.prepare(headers: headers)
        let sink = try ExportSink(destination)
        var count = 0
        do {
            var buffer: [UInt8] = []
            formatter.header(into: &buffer)
            for record in records {
                assert(record.count == headers.count, "a record has one value per header")
                try formatter.format(values: record, into: &buffer)
                count += 1
            }
            formatter.footer(into: &buffer)
            try sink.write(&buffer)
            try sink.commit()
        } catch {
            sink.discard()
            throw error
        }
        return count
    }
}
