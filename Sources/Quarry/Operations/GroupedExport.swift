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
        return try RecordExport.write(headers: names, records: rows.lazy.map { row in names.map { row[$0] ?? .null } },
                                      to: destination, formatter: formatter)
    }
}
