import Foundation

/// One pooled connection holding a `REPEATABLE READ, READ ONLY` transaction: every read made
/// through it sees the database as it was at the transaction's first query (a query
/// generation, ``PostgreSQLStore/pinnedGeneration()``). Released (rolled back and returned to
/// the pool) when this object is.
///
/// `@unchecked Sendable`: the connection is used only under `lock`, one read at a time.
final class PostgreSQLPinnedRead: @unchecked Sendable {
    private let pool: PostgreSQLConnectionPool
    private let connection: PGConnection
    private let lock = NSLock()

    /// Takes a connection from `pool` and starts the transaction, taking its snapshot now.
    init(pool: PostgreSQLConnectionPool) throws {
        self.pool = pool
        let connection = try pool.checkOut()
        do {
            let wrapped = PostgreSQLConnection(connection: connection, pool: pool)
            try wrapped.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            // The snapshot is taken by the transaction's first query, not by BEGIN.
            _ = try wrapped.query("SELECT 1")
        } catch {
            pool.checkIn(connection)
            throw error
        }
        self.connection = connection
    }

    /// Runs `body` on the pinned connection.
    func read<T>(_ body: (PGConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }

    deinit {
        // A connection given back must not be left in a transaction; a failed rollback marks
        // it broken, and the pool then drops it.
        _ = try? PostgreSQLConnection(connection: connection, pool: pool).execute("ROLLBACK")
        pool.checkIn(connection)
    }
}
