/// One row of a batch insert given by a sequence (see
/// ``StoreCoordinator/execute(_:rows:)``): values aligned with the request's
/// ``BatchInsertRequest/attributes``, destinations with its ``BatchInsertRequest/relationships``.
public struct BatchInsertRow: Sendable {
    /// The attribute values, in the request's order.
    public var values: [Value]
    /// The to-one destinations (permanent IDs), in the request's order.
    public var destinations: [ObjectID?]

    /// Creates a row.
    public init(_ values: [Value], destinations: [ObjectID?] = []) {
        self.values = values
        self.destinations = destinations
    }
}

extension StoreCoordinator {
    /// How many rows of a sequence a batch insert checks and writes at a time.
    static let streamedInsertRun = 5_000

    /// Runs a batch insert whose rows come from `rows` (after any appended to `request`):
    /// Core Data's `NSBatchInsertRequest` with a dictionary handler. Rows are checked and
    /// written a run of `streamedInsertRun` at a time, so a million-row import never holds a
    /// million rows: memory grows by one object ID per row (the result lists them all).
    ///
    /// Everything is still one transaction: a row refused halfway (a bad value, a taken
    /// unique key) leaves the store as it was, with the error naming the row (counted from 0
    /// across the request's rows and the sequence's). History and merging are as for
    /// ``execute(_:)-(BatchInsertRequest)``, except that the changes carry the new objects'
    /// IDs, not their states: a merge reads from the store what it needs.
    ///
    /// `rows` is read on the store's writer (inside the transaction): it must not use this
    /// store, or it waits for itself.
    ///
    /// ```swift
    /// let request = BatchInsertRequest(entityName: "Ticker", attributes: ["symbol", "price"])
    /// let rows = (0..<1_000_000).lazy.map { BatchInsertRow([.string("T\($0)"), .double(Double($0 % 500))]) }
    /// let result = try coordinator.execute(request, rows: rows)
    /// ```
    /// - Throws: ``BatchInsertError`` (``BatchInsertError/upsertNeedsAllRows(entity:)`` for an
    ///   upsert into an entity with uniqueness constraints), or the store's error.
    @discardableResult
    public func execute<Rows: Sequence>(_ request: BatchInsertRequest, rows: Rows) throws -> BatchResult
    where Rows.Element == BatchInsertRow {
        let checker = try BatchInsertRowChecker(request, model: model)
        if request.uniquenessConflicts == .update && !checker.entity.uniquenessConstraints.isEmpty {
            throw BatchInsertError.upsertNeedsAllRows(entity: checker.entity.name)
        }
        let entityIndex = checker.entity.index
        var given = request.rows.makeIterator()
        var sequence = rows.makeIterator()
        var n = 0
        let saved = try store.saveInserts(author: request.author ?? "batch insert") {
            var run: [ObjectChange] = []
            run.reserveCapacity(Self.streamedInsertRun)
            while run.count < Self.streamedInsertRun {
                let row: (values: [Value], destinations: [ObjectID?])
                if let appended = given.next() {
                    row = appended
                } else if let next = sequence.next() {
                    row = (next.values, next.destinations)
                } else {
                    break
                }
                if n == 0 { try checker.requireEveryAttribute() }
                let snapshot = try checker.snapshot(values: row.values, destinations: row.destinations, row: n)
                run.append(ObjectChange(id: .temporary(entityIndex: entityIndex), snapshot: snapshot))
                n += 1
            }
            return run.isEmpty ? nil : run
        }
        if request.mergesChanges { announce(saved.changes) }
        let ids = saved.changes.inserted
        return BatchResult(count: ids.count, objectIDs: ids, changes: saved.changes, historyToken: saved.historyToken)
    }
}
