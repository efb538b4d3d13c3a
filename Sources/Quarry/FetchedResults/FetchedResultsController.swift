import Foundation
import Synchronization

/// Keeps the results of a fetch request live, in sections, as the context changes: the
/// engine of a live table view.
///
/// ```swift
/// let request = FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("sector.name"), SortKey("symbol")])
/// let controller = try FetchedResultsController(fetchRequest: request, context: stack.mainContext,
///                                               sectionNameKeyPath: "sector.name")
/// controller.delegate = tableView
/// try controller.performFetch()
/// let first = controller.object(at: RowPath(section: 0, row: 0))
/// ```
///
/// `performFetch` reads only the sorted IDs and their sort keys; objects are faulted in
/// batches of the request's `fetchBatchSize` as ``object(at:)`` asks for them. Changes in
/// the context (local edits, child saves, merges of importer saves) update the results
/// incrementally: each changed object is evaluated in memory and moved by binary search; the
/// objects a merge changed that are not registered are decided together in one store query.
/// The fetch is never re-run for a change.
///
/// Concurrency: a controller belongs to its context's queue, like the context.
public final class FetchedResultsController: @unchecked Sendable {
    // State confined to `context.queue`.

    /// The request. With no sort key, results are in object-ID order (the order that breaks
    /// ties between equal keys).
    public let fetchRequest: FetchRequest
    /// The context whose objects are shown.
    public let context: ObjectContext
    /// The key path naming each object's section; it must be the first sort key's.
    public let sectionNameKeyPath: String?
    /// The name of the persistent cache, or `nil` for none.
    ///
    /// With a name, ``performFetch()`` keeps the sorted index (IDs, sort keys, section
    /// boundaries) in the file ``cacheFileURL`` and, on a later `performFetch` (in this or
    /// another process), reads it back instead of querying the store, provided the store has
    /// not been saved to since (its ``PersistentStore/modificationToken()``), and the model's
    /// version hash, entity, predicate, sort keys and section key path are the ones it was
    /// written for. Otherwise it fetches and rewrites the file. A damaged file is ignored.
    /// The cache is used only when the context has no parent and no unsaved changes (the
    /// results are then exactly the store's); incremental updates never write it, and the
    /// saves that cause them change the store's token, so a stale index is never read back.
    /// Use a distinct name per configuration; see ``deleteCache(withName:in:)``.
    public let cacheName: String?
    /// The folder of this controller's cache file (``defaultCacheDirectory`` when created).
    public var cacheDirectory: URL
    /// Receives the changes.
    public weak var delegate: FetchedResultsControllerDelegate?

    let entity: EntityDescription
    let evaluator: PredicateEvaluator?
    let keyPlans: [KeyPathPlan]
    /// `isOurs[e]`: whether objects of entity index `e` belong in the results.
    let isOurs: [Bool]
    /// The predicate over a save's carried state, when the predicate and every sort key read
    /// the object's own attributes only (else `nil`, and such objects are decided by a query).
    let snapshotTest: ((SnapshotSubject) -> Bool)?
    /// The object's own properties the predicate and sort keys read (a key path's first key);
    /// `nil` when one of them crosses a to-many, so that no change may be ruled out by name.
    let relevantKeys: Set<String>?
    /// ``relevantKeys`` as property bits (see ``PropertyMask/lowBits``), by entity index:
    /// an update whose changed bits miss them leaves the object in place. Empty when
    /// `relevantKeys` is `nil`.
    let relevantBits: [UInt64]
    var results: SortedResults
    /// Whether the results are all of the request's, or only its first ones: a preview shown
    /// while a background fetch builds the full index (see
    /// ``performFetch(cancellation:previewCount:completion:)``). A preview is not updated live;
    /// the changes it misses are applied to the full index when it is installed.
    public internal(set) var isComplete = true
    /// How many of the request's results sort before a preview's first result: 0, but for a
    /// preview around an object
    /// (``performFetch(cancellation:previewAround:rows:completion:)``), whose results start
    /// inside the full results. Back to 0 once the full index is installed.
    public internal(set) var previewOffset = 0
    /// How many results the request has, counted for a preview around an object of a request
    /// without a predicate; `nil` otherwise (and once the full index is installed).
    public internal(set) var previewTotal: Int?
    /// Where each section starts in `results`, and its name.
    var sectionStarts: [Int] = []
    var sectionNames: [String] = []
    var observation: ObservationToken?
    var fetched = false
    /// How many store queries decided merged objects that are not registered (at most one
    /// per event, and none when the save's carried state or its changed keys decide them).
    var mergeQueries = 0
    /// The last change the controller could not apply, if any (also told to the delegate).
    public internal(set) var lastError: FetchedResultsError?
    /// How many times ``performFetch()`` queried the store, and how many times it used the
    /// cache instead (for tests).
    var storeFetchCount = 0
    var cacheHitCount = 0
    /// The objects of the batches ``object(at:)`` faulted in last (with the destinations
    /// prefetched for them), oldest first, at most ``heldBatchLimit`` batches. The context holds unchanged objects weakly (as Core Data
    /// does): without this, a table reading a batch's rows one by one would see each row's
    /// object released and fault the whole batch in again for the next row. Core Data's
    /// batched results array holds a batch it faulted in the same way.
    var heldBatches: [[ManagedObject]] = []
    /// How many faulted batches ``heldBatches`` keeps: a screen's rows span two, scrolling
    /// back and forth a few.
    static let heldBatchLimit = 4

    /// Creates a controller.
    /// - Throws: ``QueryError`` when the section key path is not the first sort key's (or there
    ///   is no sort key to section by), or a key path or the predicate is invalid.
    public init(fetchRequest: FetchRequest, context: ObjectContext, sectionNameKeyPath: String? = nil, cacheName: String? = nil) throws {
        self.fetchRequest = fetchRequest
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        self.cacheDirectory = Self.defaultCacheDirectory
        let entity = try context.model.requireEntity(fetchRequest.entityName)
        self.entity = entity
        if let sectionNameKeyPath, sectionNameKeyPath != fetchRequest.sortDescriptors.first?.keyPath {
            throw QueryError.invalidOperand("section key path '\(sectionNameKeyPath)' must be the first sort key's ('\(fetchRequest.sortDescriptors.first?.keyPath ?? "none")')")
        }
        self.evaluator = try fetchRequest.predicate.map { try PredicateEvaluator($0, entity: entity, model: context.model) }
        self.keyPlans = try fetchRequest.sortDescriptors.map { try KeyPathPlan(sortingBy: $0, entity: entity, model: context.model) }
        self.results = SortedResults(sortKeys: fetchRequest.sortDescriptors)
        let kinds = Set(fetchRequest.includesSubentities ? entity.selfAndDescendantIndices : [entity.index])
        self.isOurs = context.model.entities.indices.map(kinds.contains)
        let predicate = fetchRequest.predicate ?? .truePredicate
        let predicatePlans = try predicate.keyPaths.map { try KeyPathPlan($0, entity: entity, model: context.model) }
        if keyPlans.allSatisfy(\.isLocal) && predicatePlans.allSatisfy(\.isLocal) {
            self.snapshotTest = try SubjectPredicate<SnapshotSubject>.compile(predicate, entity: entity, model: context.model)
        } else {
            self.snapshotTest = nil
        }
        // Sort keys never cross a to-many (refused above); the predicate may.
        let paths = fetchRequest.sortDescriptors.map(\.keyPath) + predicate.keyPaths
        let relevantKeys = predicatePlans.contains(where: \.crossesToMany) ? nil
            : Set(paths.compactMap { $0.split(separator: ".").first.map(String.init) })
        self.relevantKeys = relevantKeys
        self.relevantBits = relevantKeys.map { keys in context.model.entities.map { Self.bits(of: keys, in: $0) } } ?? []
    }

    deinit { observation?.cancel() }

    /// The property bits of `keys` in `entity` (every bit when one has no bit below 64).
    static func bits(of keys: Set<String>, in entity: EntityDescription) -> UInt64 {
        var bits: UInt64 = 0
        for key in keys {
            let index = entity.attributes.firstIndex { $0.name == key }
                ?? entity.relationships.firstIndex { $0.name == key }.map { entity.attributes.count + $0 }
            guard let index, index < 64 else { return .max }
            bits |= 1 << UInt64(index)
        }
        return bits
    }

    // MARK: Fetching

    /// Loads the sorted IDs and sort keys (no objects) and starts tracking changes.
    ///
    /// With a ``cacheName`` the index comes from the cache file when it is still valid, and
    /// the file is (re)written after every fetch that queried the store. Cache-file errors
    /// never fail the fetch.
    public func performFetch() throws {
        context.checkQueue()
        var query = try context.storeQuery(for: fetchRequest)
        query.limit = 0
        query.offset = 0
        if context.parent == nil && !context.hasChanges {
            // The store's results are exactly the context's: the persistent cache applies.
            install(try IndexFetch(controller: self, query: query).run())
        } else {
            // Pending changes or a parent context: compute the keys from the objects themselves.
            storeFetchCount += 1
            let ids = try context.objectIDs(for: query)
            let objects = ids.map(context.object(with:))
            try context.faultIn(objects)
            let entries = objects.map { SortedResults.Entry(id: $0.objectID, keys: keys(of: $0)) }
            results = SortedResults(sortKeys: fetchRequest.sortDescriptors, entries: entries)
            rebuildSections()
        }
        isComplete = true
        startTracking()
    }

    /// Marks the results fetched and starts applying the context's changes to them.
    func startTracking() {
        fetched = true
        if observation == nil {
            observation = context.addObjectsDidChangeObserver { [weak self] change in self?.handle(change) }
        }
    }

    // MARK: Persistent cache

    private static let configuredCacheDirectory = Mutex<URL?>(nil)

    /// Where controllers created from now on keep their caches: `$XDG_CACHE_HOME/quarry/frc`
    /// (`~/.cache/quarry/frc` without `XDG_CACHE_HOME`) unless set.
    public static var defaultCacheDirectory: URL {
        get { configuredCacheDirectory.withLock { $0 } ?? ResultsCache.standardDirectory() }
        set { configuredCacheDirectory.withLock { $0 = newValue } }
    }

    /// The file of this controller's cache (`nil` without a ``cacheName``).
    public var cacheFileURL: URL? {
        cacheName.map { ResultsCache.fileURL(name: $0, directory: cacheDirectory) }
    }

    /// Deletes the cache named `name`, or every cache when `name` is `nil` (Core Data's
    /// `deleteCache(withName:)`), in `directory` (``defaultCacheDirectory`` by default). Call
    /// it before reusing a name for a different request; a missing cache is not an error.
    public static func deleteCache(withName name: String?, in directory: URL? = nil) {
        let directory = directory ?? defaultCacheDirectory
        if let name {
            // Best-effort clean-up: a cache file that stays is checked and ignored when stale.
            try? FileManager.default.removeItem(at: ResultsCache.fileURL(name: name, directory: directory))
            return
        }
        // Best-effort clean-up: an unlistable folder or a cache file that stays is checked and
        // ignored when stale.
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.pathExtension == "frccache" { try? FileManager.default.removeItem(at: file) } // as above
    }

    /// The sort keys of `object`'s current state.
    func keys(of object: ManagedObject) -> SortedResults.Keys {
        let subject = ObjectSubject(object: object)
        return SortedResults.Keys(count: keyPlans.count) { keyPlans[$0].singleValue(of: subject) }
    }

    func rebuildSections() {
        (sectionStarts, sectionNames) = Self.sections(of: results, sectioned: sectionNameKeyPath != nil)
    }

    /// Where the sections of `results` start and their names: one unnamed section unless
    /// `sectioned` (by the first sort key).
    static func sections(of results: SortedResults, sectioned: Bool) -> (starts: [Int], names: [String]) {
        guard sectioned else { return ([0], [""]) }
        let runs = results.runs()
        return (runs.map(\.start), runs.map(\.key.sectionName))
    }

    // MARK: Reading

    /// The sections, in order. Without a section key path there is exactly one.
    public var sections: [SectionInfo] {
        context.checkQueue()
        return sectionNames.indices.map { s in
            SectionInfo(name: sectionNames[s], indexTitle: SectionInfo.indexTitle(for: sectionNames[s]), numberOfObjects: sectionCount(s))
        }
    }

    /// The index titles of the sections.
    public var sectionIndexTitles: [String] { sections.map(\.indexTitle) }

    /// How many objects the results hold.
    public var count: Int { results.count }

    func sectionCount(_ s: Int) -> Int {
        (s + 1 < sectionStarts.count ? sectionStarts[s + 1] : results.count) - sectionStarts[s]
    }

    /// The object ID at `path`.
    public func objectID(at path: RowPath) -> ObjectID {
        results.id(at: sectionStarts[path.section] + path.row)
    }

    /// The object at `path`, loading its batch (`fetchBatchSize`) if it is a fault, with the
    /// destinations of the request's `relationshipKeyPathsForPrefetching` for the whole batch.
    public func object(at path: RowPath) -> ManagedObject {
        context.checkQueue()
        let i = sectionStarts[path.section] + path.row
        let object = context.object(with: results.id(at: i))
        if object.isFault {
            let size = max(1, fetchRequest.fetchBatchSize == 0 ? 50 : fetchRequest.fetchBatchSize)
            let start = i - i % size
            let batch = results.ids(in: start..<min(results.count, start + size)).map { context.object(with: $0) }
            var held = batch
            defer {
                heldBatches.append(held)
                if heldBatches.count > Self.heldBatchLimit { heldBatches.removeFirst() }
            }
            do {
                try context.faultIn(batch)
            } catch {
                report(FetchedResultsError.batchFaultFailed(entity: entity.name, start: start, rows: batch.count, reason: "\(error)"))
                return object
            }
            // As a fetch does: the request's relationships for the whole batch, a query per
            // relationship instead of one per destination as each row's is read.
            for path in fetchRequest.relationshipKeyPathsForPrefetching {
                do {
                    held += try context.prefetch(path, from: batch)
                } catch {
                    report(FetchedResultsError.prefetchFailed(entity: entity.name, keyPath: path, reason: "\(error)"))
                }
            }
        }
        return object
    }

    /// Where `object` is (as of the last change event), or `nil`.
    public func indexPath(for object: ManagedObject) -> RowPath? { indexPath(forObjectID: object.objectID) }

    /// Where the object `id` is (as of the last change event), or `nil`: looked up in the
    /// index by ID, so no object is registered in the context for it.
    public func indexPath(forObjectID id: ObjectID) -> RowPath? {
        context.checkQueue()
        guard let i = results.position(of: id) else { return nil }
        return path(ofIndex: i)
    }

    /// Every object, in order (faults until used).
    public var fetchedObjects: [ManagedObject] {
        context.checkQueue()
        return results.allIDs.map { context.object(with: $0) }
    }

    /// The current state as section names and object IDs.
    public var snapshot: ResultsSnapshot {
        ResultsSnapshot(sections: sectionNames,
                        items: sectionNames.indices.map { s in results.ids(in: sectionStarts[s]..<(sectionStarts[s] + sectionCount(s))) },
                        reloaded: [])
    }

    /// The section and row of global index `i`.
    func path(ofIndex i: Int) -> RowPath { Self.path(ofIndex: i, starts: sectionStarts) }

    /// The section and row of global index `i` when sections start at `starts`.
    static func path(ofIndex i: Int, starts: [Int]) -> RowPath {
        if starts.count == 1 { return RowPath(section: 0, row: i - starts[0]) }
        var low = 0, high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= i { low = mid } else { high = mid - 1 }
        }
        return RowPath(section: low, row: i - starts[low])
    }
}
