import GRDB

extension SQLiteStore {
    /// Applies `changes` in one `IMMEDIATE` transaction: whole or not at all.
    ///
    /// Inserted objects get permanent IDs (primary keys allocated from `Z_PRIMARYKEY`, so
    /// several stores on one file never hand out the same key); updates and deletes are checked
    /// against their base row version (`Z_OPT`). Each conflict is passed to `resolve` inside the
    /// transaction; if any resolution is ``ConflictResolution/fail`` the transaction is rolled
    /// back and ``MergeConflictError`` lists every failed conflict.
    ///
    /// When the store ``recordsHistory``, the same transaction appends the save's history
    /// transaction (``StoreSaveResult/historyToken``): it commits with the rows or not at all.
    ///
    /// - Throws: ``StoreError/readOnly(path:)`` for a read-only store,
    ///   ``StoreError/locked(path:)`` when the write lock is not free within the busy timeout,
    ///   ``StoreError/uniquenessViolation(entity:keys:)``, ``MergeConflictError``, or
    ///   ``StoreError/sqlite(path:code:message:)``. The store is unchanged after any error.
    public func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution) throws -> StoreSaveResult {
        guard !options.readOnly else { throw StoreError.readOnly(path: path) }
        guard !changes.isEmpty else { return StoreSaveResult() }
        return try withoutActuallyEscaping(resolve) { resolve in
            try writeSave(author: changes.author, existingRows: changes.updates.count + changes.deletes.count,
                          bumpsTokenWhenNothingWritten: true, resolve: resolve) { operation, rows in
                try operation.run(changes, rows: rows)
            }
        }
    }

    /// A save's transaction, shared by ``save(_:resolve:)`` and
    /// ``saveInserts(author:_:)``: one `IMMEDIATE` transaction (with ``withWriteCache(_:rows:_:)``
    /// for `existingRows`) in which `body` writes through a ``SQLSaveOperation``, then the
    /// history transaction of what it wrote and the modification token, bumped also when
    /// nothing was written if `bumpsTokenWhenNothingWritten`. Errors become ``StoreError``s
    /// naming the entity being written.
    func writeSave(author: String?, existingRows: Int, bumpsTokenWhenNothingWritten: Bool,
                   resolve: @escaping (MergeConflict) -> ConflictResolution,
                   _ body: (SQLSaveOperation, SQLiteSaveRows) throws -> StoreSaveResult) throws -> StoreSaveResult {
        guard !options.readOnly else { throw StoreError.readOnly(path: path) }
        let operation = SQLSaveOperation(model: model, layout: layout, slots: statements.slots, recordsHistory: recordsHistory,
                                         resolve: resolve)
        do {
            return try pool.writeWithoutTransaction { db in
                var result = StoreSaveResult()
                try Self.withWriteCache(db, rows: existingRows) {
                    try db.inTransaction(.immediate) {
                        result = try body(operation, SQLiteSaveRows(store: self, db: db))
                        if recordsHistory && !result.changes.isEmpty {
                            let writer = SQLiteHistoryWriter(model: model, origin: historyOrigin.uuidString)
                            result.historyToken = try writer.record(result.changes, tombstones: operation.tombstones, author: author, db: db)
                        }
                        if bumpsTokenWhenNothingWritten || !result.changes.isEmpty { try Self.bumpModificationToken(db) }
                        return .commit
                    }
                }
                return result
            }
        } catch {
            throw Self.storeError(error, path: path, entity: operation.currentEntity.map { model.entities[$0].name })
        }
    }

    /// How many updated and deleted rows make a save big enough for ``writeCacheKiB``.
    static let largeSaveRows = 10_000

    /// The page cache, in KiB, of the writer connection during a big save.
    static let writeCacheKiB = 65_536

    /// Runs `body` (a save changing `rows` existing rows) with `db`'s page cache at
    /// ``writeCacheKiB`` when `rows` reaches ``largeSaveRows``, then puts the setting back.
    ///
    /// Updates and deletes reach rows and index entries all over the file: with SQLite's
    /// default cache (2 MB) a batch delete of 100,000 of a million rows reads pages again and
    /// again, and spills dirty pages to the log before the commit (measured, `quarry-bench
    /// batch-delete`: 1.63 s with the default cache, 1.32–1.37 s with this one). Smaller saves
    /// keep the default.
    static func withWriteCache<T>(_ db: Database, rows: Int, _ body: () throws -> T) throws -> T {
        guard rows >= largeSaveRows else { return try body() }
        let saved = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -\(writeCacheKiB)")
        // Best-effort: a setting not put back leaves the writer a bigger cache, never wrong rows.
        defer { try? db.execute(sql: "PRAGMA cache_size = \(saved)") }
        return try body()
    }
}
