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
        try writeSave(author: author, existingRows: 0, bumpsTokenWhenNothingWritten: false, resolve: { _ in .fail }) { operation, rows in
            try operation.runInserts(next, rows: rows)
        }
    }
}
