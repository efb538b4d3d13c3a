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
            let operation = SQLSaveOperation(model: model, layout: layout, slots: statements.slots, recordsHistory: recordsHistory,
                                             resolve: resolve)
            do {
                return try pool.writeWithoutTransaction { db in
                    var result = StoreSaveResult()
                    try db.inTransaction(.immediate) {
                        result = try operation.run(changes, rows: SQLiteSaveRows(store: self, db: db))
                        if recordsHistory && !result.changes.isEmpty {
                            let writer = SQLiteHistoryWriter(model: model, origin: historyOrigin.uuidString)
                            result.historyToken = try writer.record(result.changes, tombstones: operation.tombstones, author: changes.author, db: db)
                        }
                        try Self.bumpModificationToken(db)
                        return .commit
                    }
                    return result
                }
            } catch {
                throw Self.storeError(error, path: path, entity: operation.currentEntity.map { model.entities[$0].name })
            }
        }
    }
}
