/// An export of a dictionary fetch's results (``ObjectContext/fetchDictionaries(_:)``): groups
/// with their aggregates, one record per result, its ``FetchRequest/propertiesToFetch`` as the
/// columns (named as written: `sector.name`, `count()`, `sum(volume)`), to the same
/// destinations as ``ExportOperation`` (a file written whole, a FIFO or device in place,
/// standard output).
///
/// ```swift
/// var request = FetchRequest(entityName: "Ticker")
/// request.propertiesToFetch = try FetchedProperty.list(parsing: "sector.name, count(), sum(volume)")
/// request.propertiesToGroupBy = ["sector.name"]
/// try GroupedExport.run(request, coordinator: stack.writerCoordinator, destination: .standardOutput,
///                       formatter: CSVFormatter())
/// ```
public enum GroupedExport {
    /// Fetches `request`'s results from `coordinator`'s store (as
    /// ``ObjectContext/fetchDictionaries(_:)`` computes them) and writes them through
    /// `formatter`; returns how many records were written.
    /// - Throws: ``QueryError`` naming the key or aggregate at fault, the store's error, or the
    ///   destination's (nothing is left at a file destination after an error).
    @discardableResult
    public static func run(_ request: FetchRequest, coordinator: StoreCoordinator, destination: ExportOperation.Destination,
                           formatter: some ValueRowFormatter) throws -> Int {
        // Read from the store: there is no context whose unsaved changes would count.
        let fetch = try DictionaryFetch(request, model: coordinator.model)
        let rows = try fetch.run(on: coordinator.store)
        let names = fetch.properties.map(\.name)
        var formatter = formatter
        formatter.prepare(headers: names)
        let sink = try ExportSink(destination)
        do {
            var buffer: [UInt8] = []
            formatter.header(into: &buffer)
            for row in rows { try formatter.format(values: names.map { row[$0] ?? .null }, into: &buffer) }
            formatter.footer(into: &buffer)
            try sink.write(&buffer)
            try sink.commit()
        } catch {
            sink.discard()
            throw error
        }
        return rows.count
    }
}
