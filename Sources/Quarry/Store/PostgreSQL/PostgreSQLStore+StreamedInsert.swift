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
        try writeSave(author: author, commitsWhenNothingWritten: false, resolve: { _ in .fail }) { operation, rows in
            try operation.runInserts(next, rows: rows)
        }
    }
}
