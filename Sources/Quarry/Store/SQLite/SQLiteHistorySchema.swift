/// The persistent-history tables of an ``SQLiteStore`` (see ``PersistentHistoryStore``).
///
/// - `Z_HISTORYTRANSACTION`: one row per save. `Z_TOKEN` is `AUTOINCREMENT`, so SQLite keeps the
///   largest token ever handed out in `sqlite_sequence` and never reuses one, also after
///   pruning deleted the newest rows. `Z_TIMESTAMP` is seconds since 2001-01-01 (like dates).
/// - `Z_HISTORYCHANGE`: one row per object a save updated or deleted, and one per *run* of
///   inserted objects of one entity with consecutive keys (`Z_PK` the first, `Z_COUNT` how
///   many: an import's rows get consecutive keys from `Z_PRIMARYKEY`, so a save of 5,000 new
///   rows adds one history row, not 5,000, which keeps history's cost on imports low). Keyed by
///   token and position in the save (`WITHOUT ROWID`: one B-tree, appended to in key order, no
///   second index). Readers expand a run into one ``HistoryChange`` per object. `Z_ENTITY` is
///   the entity's *name*, not its index, so a migration that renumbers entities keeps history
///   readable. `Z_KEYS` lists an update's changed properties (comma-separated names, sorted),
///   `Z_TOMBSTONE` a delete's preserved attribute values (a JSON object, the JSON store's
///   value forms).
enum SQLiteHistorySchema {
    static let transactionTable = "Z_HISTORYTRANSACTION"
    static let changeTable = "Z_HISTORYCHANGE"

    /// The statements that make the tables; each may run again (`IF NOT EXISTS`).
    static let statements = [
        """
        CREATE TABLE IF NOT EXISTS Z_HISTORYTRANSACTION (Z_TOKEN INTEGER PRIMARY KEY AUTOINCREMENT, \
        Z_TIMESTAMP REAL NOT NULL, Z_AUTHOR TEXT, Z_ORIGIN TEXT NOT NULL, Z_PROCESS INTEGER NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS Z_HISTORYCHANGE (Z_TOKEN INTEGER NOT NULL, Z_SEQ INTEGER NOT NULL, \
        Z_ENTITY TEXT NOT NULL, Z_PK INTEGER NOT NULL, Z_COUNT INTEGER NOT NULL DEFAULT 1, Z_TYPE INTEGER NOT NULL, \
        Z_KEYS TEXT, Z_TOMBSTONE TEXT, PRIMARY KEY (Z_TOKEN, Z_SEQ)) WITHOUT ROWID
        """,
    ]

    static let insertTransaction = "INSERT INTO Z_HISTORYTRANSACTION (Z_TIMESTAMP, Z_AUTHOR, Z_ORIGIN, Z_PROCESS) VALUES (?, ?, ?, ?)"
    static let insertChange = "INSERT INTO Z_HISTORYCHANGE (Z_TOKEN, Z_SEQ, Z_ENTITY, Z_PK, Z_COUNT, Z_TYPE, Z_KEYS, Z_TOMBSTONE) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
}
