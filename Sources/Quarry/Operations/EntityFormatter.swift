/// Turns the objects of an export into bytes: a header, one record per object, a footer.
///
/// ``ExportOperation`` calls it on its own thread (never the main queue), in this order:
/// ``prepare(for:model:)`` once, ``prefetchKeyPaths`` once, ``header(into:)`` once,
/// ``format(_:into:)`` for each object in the export's order, then ``footer(into:)``. Each
/// call appends to `output`, which the operation flushes to the destination as it fills.
/// Objects passed to ``format(_:into:)`` belong to the operation's context and are only
/// valid during the call (the context is reset between batches).
///
/// The formatters: ``CSVFormatter`` and ``JSONFormatter`` (JSON Lines or a JSON array).
public protocol EntityFormatter: Sendable {
    /// Resolves the formatter against the exported entity (column key paths, defaults);
    /// throws ``ExportError/invalidColumn(entity:keyPath:reason:)`` for a key path that does
    /// not exist, before anything is written.
    mutating func prepare(for entity: EntityDescription, model: ManagedObjectModel) throws
    /// Relationship key paths ``format(_:into:)`` follows, loaded for each batch in one query
    /// per level so formatting fires no faults one by one (`["sector"]` for `sector.name`).
    var prefetchKeyPaths: [String] { get }
    /// Appends what comes before the first record.
    func header(into output: inout [UInt8])
    /// Appends the record of `object`.
    mutating func format(_ object: ManagedObject, into output: inout [UInt8]) throws
    /// Appends what comes after the last record.
    func footer(into output: inout [UInt8])
}
