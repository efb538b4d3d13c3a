import Foundation

/// A place objects are kept: the SQLite store, the in-memory store, and any other back end.
///
/// A store is shared by every coordinator opened on it and must be safe to call from any
/// thread (`Sendable`). Reads see committed data only; ``save(_:resolve:)`` applies a whole
/// change set in one transaction, so it lands whole or not at all.
public protocol PersistentStore: AnyObject, Sendable {
    /// A UUID fixed when the store was created (the host part of object URIs).
    var identifier: UUID { get }
    /// The model the store was opened with.
    var model: ManagedObjectModel { get }
    /// Where the store lives (`nil` for memory).
    var url: URL? { get }
    /// Whether writes are refused.
    var isReadOnly: Bool { get }

    /// The committed state of each of `ids` that still exists (missing IDs are left out).
    func snapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot]

    /// The committed contents of to-many relationship `relationship` (an index into the
    /// entity's relationships) of object `id`, in order for ordered relationships.
    func relatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID]

    /// The committed contents of to-many relationship `relationship` of every object of the
    /// entity at `entityIndex` that has members, by object: what ``relatedIDs(of:relationship:)``
    /// gives each of them, read in one pass. `nil` when the store has no faster way than asking
    /// object by object (a SQLite store's per-object read is an indexed lookup already).
    func allRelatedIDs(ofEntity entityIndex: Int, relationship: Int) throws -> [ObjectID: [ObjectID]]?

    /// The IDs of the objects `request` selects, in the request's order
    /// (primary key order when it has no sort descriptors).
    func objectIDs(for request: StoreQuery) throws -> [ObjectID]

    /// How many objects `request` selects, without loading them.
    func count(for request: StoreQuery) throws -> Int

    /// The IDs `request` selects, in order, each with the values of `keyPaths` (attributes,
    /// through to-ones): what a fetched-results controller indexes, without loading objects.
    func keyedIDs(for request: StoreQuery, keyPaths: [String]) throws -> [(id: ObjectID, keys: [Value])]

    /// Whether a query started under a current ``QueryCancellation`` stops soon after it is
    /// cancelled (SQLite, PostgreSQL): a fetched-results controller runs its cancellable
    /// background fetch only on such a store. `false` by default.
    var cancelsQueries: Bool { get }

    /// The rows ``keyedIDs(for:keyPaths:)`` returns, handed to `body` one at a time in order
    /// as they are read, with no array of all rows: what a fetched-results controller builds
    /// its index from. Each row is valid only during its call (see ``KeyedRow``); an error
    /// from `body` stops the query and is rethrown.
    ///
    /// The default reads ``keyedIDs(for:keyPaths:)`` and hands its rows over; a store with a
    /// cursor streams from it.
    func forEachKeyedRow(for request: StoreQuery, keyPaths: [String], _ body: (any KeyedRow) throws -> Void) throws

    /// Applies `changes` in one transaction.
    ///
    /// The store assigns permanent IDs to inserted objects, checks each update and delete
    /// against the row version it was based on, and calls `resolve` for each conflict (inside
    /// the transaction). If any resolution is ``ConflictResolution/fail`` the transaction is
    /// rolled back and ``MergeConflictError`` thrown with every conflict; any other error rolls
    /// back too. On success it returns the IDs and states it wrote.
    func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution) throws -> StoreSaveResult

    /// Inserts the new objects `next` hands over, a run at a time until it returns `nil`, in
    /// one transaction (whole or not at all; an error from `next` rolls back too), recording
    /// them in history as one save by `author`: a batch insert from a sequence.
    ///
    /// The result's ``StoreSaveResult/changes`` lists every inserted object's permanent ID, in
    /// order; a store that writes run by run does not keep their states (nor
    /// ``StoreSaveResult/permanentIDs``), so a million rows never sit in memory at once. The
    /// default collects every run and calls ``save(_:resolve:)`` (stores that hold their
    /// contents in memory anyway).
    func saveInserts(author: String, _ next: () throws -> [ObjectChange]?) throws -> StoreSaveResult

    /// A token naming the store's committed state: it changes with every committed save (in
    /// any process) and never repeats for different contents, so persistent caches (a
    /// fetched-results controller's `cacheName`) can tell whether the store changed since
    /// they were written. `nil` when the store cannot tell (caches are then never reused).
    func modificationToken() throws -> String?
}

extension PersistentStore {
    /// Collects every run of `next` and saves them as one change set.
    public func saveInserts(author: String, _ next: () throws -> [ObjectChange]?) throws -> StoreSaveResult {
        var changes = StoreChangeSet()
        changes.author = author
        while let run = try next() { changes.inserts += run }
        return try save(changes) { _ in .fail }
    }

    /// `nil`: ask object by object.
    public func allRelatedIDs(ofEntity entityIndex: Int, relationship: Int) throws -> [ObjectID: [ObjectID]]? { nil }

    /// `nil`: a store that does not track its saves never validates a persistent cache.
    public func modificationToken() throws -> String? { nil }

    /// `false`: a store's queries ignore ``QueryCancellation`` unless it says otherwise.
    public var cancelsQueries: Bool { false }

    /// ``keyedIDs(for:keyPaths:)``'s rows, one ``ValuesKeyedRow`` at a time.
    public func forEachKeyedRow(for request: StoreQuery, keyPaths: [String], _ body: (any KeyedRow) throws -> Void) throws {
        for row in try keyedIDs(for: request, keyPaths: keyPaths) {
            try body(ValuesKeyedRow(id: row.id, keys: row.keys))
        }
    }
}

/// The store-level part of a fetch: which entity, which rows, in which order.
///
/// The SQLite store compiles the predicate and sort descriptors to SQL; the in-memory store
/// evaluates them with the same semantics.
public struct StoreQuery: Sendable {
    /// The entity fetched.
    public var entity: EntityDescription
    /// Whether objects of sub-entities are included.
    public var includesSubentities: Bool
    /// The filter (`nil`: every object).
    public var predicate: ObjectPredicate?
    /// The order (ties, and an empty list, order by primary key).
    public var sortDescriptors: [SortKey]
    /// When set, only these objects are considered (the query still filters and sorts them).
    public var restrictedTo: [ObjectID]?
    /// The largest number of IDs returned (0: no limit).
    public var limit: Int
    /// How many leading results are skipped.
    public var offset: Int

    /// Creates a store query.
    public init(entity: EntityDescription, includesSubentities: Bool = true, predicate: ObjectPredicate? = nil,
                sortDescriptors: [SortKey] = [], limit: Int = 0, offset: Int = 0) {
        self.entity = entity
        self.includesSubentities = includesSubentities
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.limit = limit
        self.offset = offset
    }
}
