import GRDB
import GRDBSQLite

extension SQLiteStore {
    /// `true`: queries check the current ``QueryCancellation`` (SQLite's progress handler).
    public var cancelsQueries: Bool { true }

    /// How many SQLite virtual-machine instructions run between two cancellation checks: small
    /// enough that a cancelled query stops within milliseconds, large enough to cost nothing.
    static let progressInterval: Int32 = 1000

    /// Runs `body` on `db` with `cancellation` checked by SQLite's progress handler: once it is
    /// cancelled, the statement running fails with `SQLITE_INTERRUPT`. Without a token, just
    /// runs `body`. The handler is removed before returning, so the pooled connection is left
    /// as it was found.
    static func withCancellation<T>(_ cancellation: QueryCancellation?, on db: Database, _ body: () throws -> T) throws -> T {
        guard let cancellation else { return try body() }
        try cancellation.checkCancelled()
        let handle = db.sqliteConnection
        let token = Unmanaged.passRetained(cancellation)
        sqlite3_progress_handler(handle, progressInterval, { raw in
            guard let raw else { return 0 }
            return Unmanaged<QueryCancellation>.fromOpaque(raw).takeUnretainedValue().shouldStop() ? 1 : 0
        }, token.toOpaque())
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            token.release()
        }
        return try body()
    }
}
