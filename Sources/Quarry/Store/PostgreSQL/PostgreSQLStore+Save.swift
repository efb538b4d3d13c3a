import Foundation

extension PostgreSQLStore {
    /// Applies `changes` in one transaction: whole or not at all.
    ///
    /// Inserted objects get keys from their table's sequence; updates and deletes are checked
    /// against their base row version (`Z_OPT`). Each conflict is passed to `resolve` inside
    /// the transaction; if any resolution is ``ConflictResolution/fail`` the transaction is
    /// rolled back and ``MergeConflictError`` lists every failed conflict. When the store
    /// ``recordsHistory``, the same transaction appends the history transaction and notifies
    /// ``notificationChannel`` (PostgreSQL delivers the notification at commit).
    ///
    /// - Throws: ``StoreError/readOnly(path:)``, ``StoreError/uniquenessViolation(entity:keys:)``,
    ///   ``MergeConflictError`` or ``StoreError/postgreSQL(store:sqlState:message:)``. The store
    ///   is unchanged after any error.
    public func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution) throws -> StoreSaveResult {
        guard !options.readOnly else { throw StoreError.readOnly(path: storeURL.description) }
        guard !changes.isEmpty else { return StoreSaveResult() }
        return try withoutActuallyEscaping(resolve) { resolve in
            try writeSave(author: changes.author, commitsWhenNothingWritten: true, resolve: resolve) { operation, rows in
                try operation.run(changes, rows: rows)
            }
        }
    }

    /// A save's transaction, shared by ``save(_:resolve:)`` and ``saveInserts(author:_:)``:
    /// `body` writes through a ``SQLSaveOperation``, then the history transaction of what it
    /// wrote (which bumps the modification token and notifies ``notificationChannel``), or the
    /// token alone. When nothing was written and not `commitsWhenNothingWritten`, neither is
    /// touched and no commit is noted. A unique-index violation names the entity being written.
    func writeSave(author: String?, commitsWhenNothingWritten: Bool,
                   resolve: @escaping (MergeConflict) -> ConflictResolution,
                   _ body: (SQLSaveOperation, PostgreSQLSaveRows) throws -> StoreSaveResult) throws -> StoreSaveResult {
        guard !options.readOnly else { throw StoreError.readOnly(path: storeURL.description) }
        let operation = SQLSaveOperation(model: model, layout: layout.base, slots: layout.slots, recordsHistory: recordsHistory,
                                         resolve: resolve)
        do {
            let result = try pool.transaction { connection in
                var result = try body(operation, PostgreSQLSaveRows(store: self, connection: connection))
                guard commitsWhenNothingWritten || !result.changes.isEmpty else { return result }
                if recordsHistory && !result.changes.isEmpty {
                    let writer = PostgreSQLHistoryWriter(model: model, origin: historyOrigin, channel: notificationChannel)
                    result.historyToken = try writer.record(result.changes, tombstones: operation.tombstones, author: author,
                                                            after: Self.modificationTokenBump, connection: connection)
                } else {
                    try Self.bumpModificationToken(connection)
                }
                return result
            }
            if commitsWhenNothingWritten || !result.changes.isEmpty { noteCommit() }
            return result
        } catch {
            throw uniquenessError(error, entity: operation.currentEntity.map { model.entities[$0].name })
        }
    }

    /// A unique-index violation (SQLSTATE 23505) as ``StoreError/uniquenessViolation(entity:keys:)``
    /// with the columns the server names (`Key (a, b)=(…) already exists`); other errors unchanged.
    func uniquenessError(_ error: any Error, entity: String?) -> any Error {
        guard case StoreError.postgreSQL(_, "23505", let message) = error else { return error }
        var keys: [String] = []
        if let open = message.range(of: "Key ("), let close = message.range(of: ")=", range: open.upperBound..<message.endIndex) {
            keys = message[open.upperBound..<close.lowerBound].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return StoreError.uniquenessViolation(entity: entity ?? "?", keys: keys)
    }
}
