import Foundation
import Synchronization

/// Writes the objects of one entity to a file or a file handle through an ``EntityFormatter``
/// (FRCoreDataOperation's export operation).
///
/// The objects the predicate selects are read in the sort descriptors' order, in batches of
/// ``batchSize``. When the formatter is a ``ValueRowFormatter`` whose columns have one value
/// each, a batch's values come straight from the store in one query (related values joined
/// in SQL), with no objects; otherwise each batch is loaded as objects in one query (plus one
/// per relationship level the formatter follows), formatted, written, and then the context is
/// reset so the batch's objects are released. Memory stays bounded by the batch size; only the object IDs of the
/// whole export (16 bytes each) are held from start to end, so the order is the one of a
/// single moment.
///
/// A file destination is written to a temporary file in the same folder and renamed onto the
/// destination at the end: a cancelled or failed export leaves neither a partial file nor
/// the temporary one, and an existing destination stays untouched until the export is
/// complete. A ``Destination/fileHandle(_:name:)`` (standard output) is written in place.
///
/// ```swift
/// let export = ExportOperation(stack: stack, entityName: "Ticker",
///                              predicate: try ObjectPredicate(format: "price > 10"),
///                              sortDescriptors: [SortKey("symbol")],
///                              destination: .file(url),
///                              formatter: CSVFormatter(columns: ["symbol", "price", "sector.name"]))
/// export.progressHandler = { print("\($0.rowsDone) of \($0.totalRows)") }
/// try await export.run(on: queue)
/// ```
public final class ExportOperation: ContextOperation, @unchecked Sendable {
    // Settings and statistics sit in Mutexes: set from any thread before start, read while
    // the operation runs on its own thread.

    /// Where an export goes.
    public enum Destination: Sendable {
        /// A file, written beside and renamed into place when complete.
        case file(URL)
        /// An open handle (standard output), written as the export goes; `name` is used in
        /// error messages.
        case fileHandle(FileHandle, name: String)

        /// Standard output.
        public static var standardOutput: Destination { .fileHandle(.standardOutput, name: "<stdout>") }
    }

    /// How far an export has come.
    public struct Progress: Sendable, Equatable {
        /// Objects written so far.
        public var rowsDone: Int
        /// Objects the export will write.
        public var totalRows: Int
    }

    /// What an export did.
    public struct Statistics: Sendable, Equatable {
        /// Objects written.
        public var rowsWritten = 0
        /// Batches read.
        public var batches = 0
        /// The most objects the operation's context held at once (after a batch was
        /// formatted): bounded by the batch size and the related objects it follows; 0 when
        /// the formatter read values straight from the store (``ValueRowFormatter``).
        public var largestRegisteredObjectCount = 0
    }

    private struct Settings {
        var batchSize = 1000
        var progressHandler: (@Sendable (Progress) -> Void)?
        var statistics = Statistics()
    }

    /// The exported entity's name.
    public let entityName: String
    /// Which objects are exported (`nil`: all).
    public let predicate: ObjectPredicate?
    /// Their order (primary key order when empty).
    public let sortDescriptors: [SortKey]
    /// Where the export goes.
    public let destination: Destination
    /// When set, the objects exported (those of other entities left out), in this order,
    /// instead of the ones ``predicate`` selects: a browser's selection.
    public let objectIDs: [ObjectID]?
    private let formatter: any EntityFormatter
    private let settings = Mutex(Settings())

    /// An export of `entityName` through `formatter` whose context works on `coordinator`.
    public init(coordinator: StoreCoordinator, entityName: String, predicate: ObjectPredicate? = nil,
                sortDescriptors: [SortKey] = [], objectIDs: [ObjectID]? = nil, destination: Destination, formatter: some EntityFormatter) {
        self.entityName = entityName
        self.objectIDs = objectIDs
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.destination = destination
        self.formatter = formatter
        super.init(coordinator: coordinator)
    }

    /// An export of `entityName` from `stack`'s store (read through its writer coordinator,
    /// off the main queue).
    public convenience init(stack: PersistentStack, entityName: String, predicate: ObjectPredicate? = nil,
                            sortDescriptors: [SortKey] = [], objectIDs: [ObjectID]? = nil, destination: Destination,
                            formatter: some EntityFormatter) {
        self.init(coordinator: stack.writerCoordinator, entityName: entityName, predicate: predicate,
                  sortDescriptors: sortDescriptors, objectIDs: objectIDs, destination: destination, formatter: formatter)
    }

    /// How many objects are loaded and formatted at a time (default 1,000; at least 1).
    public var batchSize: Int {
        get { settings.withLock { $0.batchSize } }
        set { settings.withLock { $0.batchSize = max(1, newValue) } }
    }

    /// Called on the operation's thread after each batch (and once before the first) with
    /// the rows written so far and the total.
    public var progressHandler: (@Sendable (Progress) -> Void)? {
        get { settings.withLock { $0.progressHandler } }
        set { settings.withLock { $0.progressHandler = newValue } }
    }

    /// What the export did so far.
    public var statistics: Statistics { settings.withLock { $0.statistics } }

    override public func execute(in context: ObjectContext) throws {
        let entity = try context.model.requireEntity(entityName)
        var formatter = formatter
        try formatter.prepare(for: entity, model: context.model)
        // The context is new and holds no changes, so the store's answer is the context's.
        let store = context.coordinator.store
        let ids: [ObjectID]
        if let objectIDs {
            let kinds = Set(entity.selfAndDescendantIndices)
            ids = objectIDs.filter { kinds.contains(Int($0.entityIndex)) }
        } else {
            ids = try store.objectIDs(for: StoreQuery(entity: entity, predicate: predicate, sortDescriptors: sortDescriptors))
        }
        if let values = formatter as? any ValueRowFormatter, let keyPaths = values.valueKeyPaths {
            try exportValues(values, keyPaths: keyPaths, ids: ids, entity: entity, store: store)
        } else {
            try exportObjects(formatter, ids: ids, in: context)
        }
    }

    /// The fast path: each batch's values read straight from the store, no objects loaded.
    private func exportValues<F: ValueRowFormatter>(_ formatter: F, keyPaths: [String], ids: [ObjectID],
                                                    entity: EntityDescription, store: any PersistentStore) throws {
        var formatter = formatter
        var query = StoreQuery(entity: entity, sortDescriptors: sortDescriptors)
        try writeBatches(of: ids, header: { formatter.header(into: &$0) }, footer: { formatter.footer(into: &$0) }) { batch, buffer, flush in
            query.restrictedTo = Array(batch)
            // Rows deleted since the IDs were read are simply not returned.
            let rows = try store.keyedIDs(for: query, keyPaths: keyPaths)
            for row in rows {
                try formatter.format(values: row.keys, into: &buffer)
                try flush(&buffer)
            }
            return (rows.count, 0)
        }
    }

    /// The general path: each batch loaded as objects (and the related objects the formatter
    /// follows), formatted, then released by resetting the context.
    private func exportObjects<F: EntityFormatter>(_ formatter: F, ids: [ObjectID], in context: ObjectContext) throws {
        var formatter = formatter
        let prefetch = formatter.prefetchKeyPaths
        try writeBatches(of: ids, header: { formatter.header(into: &$0) }, footer: { formatter.footer(into: &$0) }) { batch, buffer, flush in
            let objects = batch.map(context.object(with:))
            try context.faultIn(objects)
            for path in prefetch { try context.prefetch(path, from: objects) }
            var written = 0
            for object in objects where !object.isDeleted {  // deleted since the IDs were read
                try formatter.format(object, into: &buffer)
                try flush(&buffer)
                written += 1
            }
            let held = context.registeredObjectCount
            context.reset()
            return (written, held)
        }
    }

    /// Opens the sink, writes the header, runs `batch` over `ids` in batches of ``batchSize``
    /// (checking cancellation, reporting progress), writes the footer and commits; on any
    /// error or cancellation the sink is discarded. `batch` returns the rows it wrote and the
    /// objects its context held.
    private func writeBatches(of ids: [ObjectID], header: (inout [UInt8]) -> Void, footer: (inout [UInt8]) -> Void,
                              batch: (ArraySlice<ObjectID>, inout [UInt8], (inout [UInt8]) throws -> Void) throws -> (rows: Int, held: Int)) throws {
        let (size, progress) = settings.withLock { ($0.batchSize, $0.progressHandler) }
        progress?(Progress(rowsDone: 0, totalRows: ids.count))
        let sink = try ExportSink(destination)
        do {
            var buffer: [UInt8] = []
            buffer.reserveCapacity(Self.flushThreshold + 4096)
            let flush: (inout [UInt8]) throws -> Void = { if $0.count >= Self.flushThreshold { try sink.write(&$0) } }
            header(&buffer)
            var done = 0
            var start = 0
            while start < ids.count {
                try checkCancelled()
                let (rows, held) = try batch(ids[start..<min(ids.count, start + size)], &buffer, flush)
                done += rows
                settings.withLock { s in
                    s.statistics.rowsWritten = done
                    s.statistics.batches += 1
                    s.statistics.largestRegisteredObjectCount = max(s.statistics.largestRegisteredObjectCount, held)
                }
                start += size
                progress?(Progress(rowsDone: done, totalRows: ids.count))
            }
            footer(&buffer)
            try checkCancelled()
            try sink.write(&buffer)
            try sink.commit()
        } catch {
            sink.discard()
            throw error
        }
    }

    /// Bytes gathered before a write: large enough to make writes cheap, small enough to
    /// keep memory flat.
    private static let flushThreshold = 1 << 18
}
