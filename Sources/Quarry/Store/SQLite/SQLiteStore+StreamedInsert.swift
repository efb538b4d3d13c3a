import GRDB

extension SQLiteStore {
    /// Writes the runs of new objects `next` hands over in one `IMMEDIATE` transaction, each
    /// run as a save's inserts (keys from `Z_PRIMARYKEY`, multi-row `INSERT`s), then one
    /// history transaction for them all (see ``PersistentStore/saveInserts(author:_:)``).
    ///
    /// `next` runs on the writer connection's queue, inside the transaction.
    /// - Throws: ``StoreError/readOnly(path:)``, ``StoreError/locked(path:)``,
    ///   ``StoreError/uniquenessViolation(entity:keys:)``, what `next` throws, or
    ///   ``StoreError/sqlite(path:code:message:)``. The store is unchanged after any error.
    public func saveInserts(author: String, _ next: () throws -> [ObjectChange]?) throws -> StoreSaveResult {
        guard !options.readOnly else { throw StoreError.readOnly(path: path) }
        let operation = SQLSaveOperation(model: model, layout: layout, slots: statements.slots, recordsHistory: recordsHistory,
                                         resolve: { _ in .fail })
        do {
            return try pool.writeWithoutTransaction { db in
                var result = StoreSaveResult()
                try db.inTransaction(.immediate) {
                    result = try operation.runInserts(next, rows: SQLiteSaveRows(store: self, db: db))
                    guard !result.changes.isEmpty else { return .commit }
                    if recordsHistory {
                        let writer = SQLiteHistoryWriter(model: model, origin: historyOrigin.uuidString)
                        result.historyToken = try writer.record(result.changes, tombstones: [:], author: author, db: db)
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
