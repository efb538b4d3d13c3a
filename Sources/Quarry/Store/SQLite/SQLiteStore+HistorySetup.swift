import GRDB

extension SQLiteStore {
    /// Makes the history tables of a new store (when `records`) and records the choice in
    /// `Z_METADATA`, inside the creating transaction.
    static func createHistory(_ db: Database, records: Bool) throws {
        if records {
            for sql in SQLiteHistorySchema.statements { try db.execute(sql: sql) }
        }
        try db.execute(sql: "INSERT OR REPLACE INTO Z_METADATA (key, value) VALUES (?, ?)",
                       arguments: [MetadataKey.recordsHistory, records ? "1" : "0"])
    }

    /// Whether the opened store records history, upgrading it first when it needs to.
    ///
    /// The file decides (`history.records` in `Z_METADATA`), not the options, so every process
    /// agrees. A store made before history existed has no such key: opened for writing with
    /// ``Options/recordsHistory`` on, it gets the tables and the key in one `IMMEDIATE`
    /// transaction (rechecked inside, so two processes upgrading at once do it once); opened
    /// read-only or with the option off, nothing is written and it records nothing. A store that
    /// records but lost its history tables (dropped by hand) gets them back when opened for writing.
    static func prepareHistory(pool: DatabasePool, options: Options) throws -> Bool {
        let (key, hasTables) = try pool.read { db in
            (try String.fetchOne(db, sql: "SELECT value FROM Z_METADATA WHERE key = ?", arguments: [MetadataKey.recordsHistory]),
             try db.tableExists(SQLiteHistorySchema.transactionTable) && db.tableExists(SQLiteHistorySchema.changeTable))
        }
        switch key {
        case "1"?:
            guard !options.readOnly else { return hasTables }
            if !hasTables { try pool.write { db in try createHistory(db, records: true) } }
            return true
        case nil where !options.readOnly && options.recordsHistory:
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    let now = try String.fetchOne(db, sql: "SELECT value FROM Z_METADATA WHERE key = ?", arguments: [MetadataKey.recordsHistory])
                    if now == nil || now == "1" { try createHistory(db, records: true) }
                    return .commit
                }
            }
            return try pool.read { try String.fetchOne($0, sql: "SELECT value FROM Z_METADATA WHERE key = ?", arguments: [MetadataKey.recordsHistory]) } == "1"
        default:
            return false
        }
    }
}
