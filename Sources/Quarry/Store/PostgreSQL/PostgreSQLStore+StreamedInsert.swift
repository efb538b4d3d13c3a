extension PostgreSQLStore {
    /// Writes the runs of new objects `next` hands over in one transaction, each run as a
    /// save's inserts (keys from the tables' sequences), then one history transaction for
    /// them all, notified at commit (see ``PersistentStore/saveInserts(author:_:)``).
    ///
    /// `next` runs on the calling thread, inside the transaction.
    /// - Throws: ``StoreError/readOnly(path:)``, ``StoreError/uniquenessViolation(entity:keys:)``,
    ///   what `next` throws, or ``StoreError/postgreSQL(store:sqlState:message:)``. The store is
    ///   unchanged after any error.
    public func saveInserts(author: String, _ next: () throws -> [ObjectChange]?) throws -> StoreSaveResult {
        guard !options.readOnly else { throw StoreError.readOnly(path: storeURL.description) }
        let operation = SQLSaveOperation(model: model, layout: layout.base, slots: layout.slots, recordsHistory: recordsHistory,
                                         resolve: { _ in .fail })
        do {
            let result = try pool.transaction { connection in
                var result = try operation.runInserts(next, rows: PostgreSQLSaveRows(store: self, connection: connection))
                guard !result.changes.isEmpty else { return result }
                if recordsHistory {
                    let writer = PostgreSQLHistoryWriter(model: model, origin: historyOrigin, channel: notificationChannel)
                    result.historyToken = try writer.record(result.changes, tombstones: [:], author: author,
                                                            after: Self.modificationTokenBump, connection: connection)
                } else {
                    try Self.bumpModificationToken(connection)
                }
                return result
            }
            if !result.changes.isEmpty { noteCommit() }
            return result
        } catch {
            throw uniquenessError(error, entity: operation.currentEntity.map { model.entities[$0].name })
        }
    }
}
