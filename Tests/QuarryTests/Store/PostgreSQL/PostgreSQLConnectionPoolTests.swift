import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// The blocking connection pool over libpq (needs the test server).
@Suite("PostgreSQL connection pool", .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLConnectionPoolTests {
    @Test("a query with bound parameters round-trips; a failed statement names its SQLSTATE and the store")
    func roundTrip() throws {
        let url = try PostgreSQLStoreURL(parsing: PostgreSQLTestServer.url!)
        let pool = try PostgreSQLConnectionPool(url: url)
        defer { pool.close() }
        var binds = PGBindings()
        binds.append(Int64(41))
        binds.append("x'y")
        let rows = try pool.withConnection { try $0.query("SELECT $1::bigint + 1, $2::text", binds) }
        let (number, text) = (try rows[0][0].decode(Int64.self), try rows[0][1].decode(String.self))
        #expect(number == 42 && text == "x'y")
        #expect {
            try pool.withConnection { try $0.execute("SELECT * FROM no_such_table") }
        } throws: { error in
            guard case StoreError.postgreSQL(let store, let state, _) = error else { return false }
            return state == "42P01" && store == url.description
        }
    }

    @Test("many callers share at most maximumConnections connections; a transaction that throws rolls back")
    func sharedConnectionsAndRollback() throws {
        try withScratchSchema(maximumConnections: 2) { pool in try sharedConnectionsAndRollback(pool) }
    }

    private func sharedConnectionsAndRollback(_ pool: PostgreSQLConnectionPool) throws {
        try pool.withConnection { try $0.execute("CREATE TABLE t (v bigint)") }
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            var binds = PGBindings()
            binds.append(Int64(i))
            _ = try? pool.withConnection { try $0.execute("INSERT INTO t VALUES ($1)", binds) }
        }
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try pool.transaction { connection in
                try connection.execute("INSERT INTO t VALUES (100)")
                throw Boom()
            }
        }
        let count = try pool.withConnection { try $0.query("SELECT count(*) FROM t")[0].decode(Int64.self) }
        #expect(count == 8)
    }

    @Test("values go out and come back in binary format with their types: integers, doubles (exactly), text, bytes, arrays, NULL")
    func binaryRoundTrip() throws {
        let pool = try PostgreSQLConnectionPool(url: PostgreSQLStoreURL(parsing: PostgreSQLTestServer.url!))
        defer { pool.close() }
        var binds = PGBindings()
        binds.append(Int64.min)
        binds.append(0.1 + 0.2)
        binds.append("zoë \u{1F600}")
        binds.append(Data([0, 1, 255]))
        binds.append([Int64(3), -4])
        binds.append(["a,b", "\"q\""])
        binds.append([Double.infinity, -0.5])
        binds.appendNull()
        binds.append(Int32(-7))
        let row = try pool.withConnection {
            try $0.query("SELECT $1, $2, $3, $4, array_length($5, 1), $6[1] || $6[2], $7[1] + $7[2], $8::text IS NULL, $9, true, 2::smallint, 'x'::varchar", binds)
        }[0]
        #expect(try row[0].decode(Int64.self) == .min)
        #expect(try row[1].decode(Double.self) == 0.1 + 0.2)
        #expect(try row[2].decode(String.self) == "zoë \u{1F600}")
        #expect(try row[3].decode(Data.self) == Data([0, 1, 255]))
        #expect(try row[4].decode(Int.self) == 2)
        #expect(try row[5].decode(String.self) == "a,b\"q\"")
        #expect(try row[6].decode(Double.self) == .infinity)
        #expect(try row[7].decode(Bool.self))
        #expect(try row[8].decode(Int32.self) == -7)
        #expect(try row[9].decode(Bool.self))
        #expect(try row[10].decode(Int64.self) == 2)
        #expect(try row[11].decode(String.self) == "x")
        let arrays = try pool.withConnection {
            try $0.query("SELECT ARRAY[5, -1, 9000000000]::bigint[], '{}'::bigint[], ARRAY[7, 8]::integer[], ARRAY[1, NULL]::bigint[]")
        }[0]
        #expect(try arrays[0].decode([Int64].self) == [5, -1, 9_000_000_000])
        #expect(try arrays[1].decode([Int64].self) == [])
        #expect(try arrays[2].decode([Int64].self) == [7, 8])
        #expect(throws: ColumnDecodingError.self) { try arrays[3].decode([Int64].self) }
    }

    @Test("a value of another type is a decoding error naming the column, never a wrong value or NULL")
    func decodingMismatch() throws {
        let pool = try PostgreSQLConnectionPool(url: PostgreSQLStoreURL(parsing: PostgreSQLTestServer.url!))
        defer { pool.close() }
        let row = try pool.withConnection { try $0.query("SELECT 'x'::text AS label, NULL::bigint AS missing, 2.5::float8 AS ratio") }[0]
        #expect(throws: ColumnDecodingError.self) { try row[0].decode(Int64.self) }
        #expect(throws: ColumnDecodingError.self) { try row[1].decode(Int64.self) }
        #expect(try row[1].decode(Int64?.self) == nil)
        #expect(throws: ColumnDecodingError.self) { try row[2].decode(Int64.self) }
        do {
            _ = try row[0].decode(Double.self)
            Issue.record("text decoded as a double")
        } catch let error as ColumnDecodingError {
            #expect(error.column == "label" && error.reason.contains("text"), "\(error)")
        }
    }

    @Test("rows stream one at a time; a row handler that throws stops the statement and leaves the connection usable")
    func streamingStopsOnError() throws {
        let pool = try PostgreSQLConnectionPool(url: PostgreSQLStoreURL(parsing: PostgreSQLTestServer.url!), maximumConnections: 1)
        defer { pool.close() }
        var seen = 0
        try pool.withConnection { try $0.forEachRow("SELECT g FROM generate_series(1, 5000) g") { _ in seen += 1 } }
        #expect(seen == 5000)
        struct Enough: Error {}
        seen = 0
        #expect(throws: Enough.self) {
            try pool.withConnection {
                // A set-returning function in the select list streams (in FROM it would first
                // make all its rows): the statement runs for minutes unless it is stopped.
                try $0.forEachRow("SELECT generate_series(1, 1000000000)") { _ in
                    seen += 1
                    if seen == 10 { throw Enough() }
                }
            }
        }
        #expect(seen == 10)
        #expect(try pool.withConnection { try $0.query("SELECT 1::bigint")[0].decode(Int64.self) } == 1)
    }

    @Test("without a password in the URL, libpq reads the password file (PGPASSFILE); a wrong one in the URL comes first, is refused and never shown")
    func passwordSources() throws {
        let url = try PostgreSQLStoreURL(parsing: PostgreSQLTestServer.url!)
        #expect(url.urlPassword == nil && !url.connectionParameters.contains { $0.key == "password" })
        let pool = try PostgreSQLConnectionPool(url: url, maximumConnections: 1)
        pool.close()
        var wrong = url
        wrong.urlPassword = "not-the-password-42"
        #expect {
            _ = try PostgreSQLConnectionPool(url: wrong, maximumConnections: 1)
        } throws: { error in
            let message = String(describing: error)
            return message.contains("authentication failed for user") && !message.contains("not-the-password-42")
        }
    }

    @Test("a pipeline runs its statements in order in one round trip; one that fails skips the rest and its error is thrown")
    func pipeline() throws {
        try withScratchSchema(maximumConnections: 1) { pool in try pipeline(pool) }
    }

    private func pipeline(_ pool: PostgreSQLConnectionPool) throws {
        var seven = PGBindings()
        seven.append(Int64(7))
        let results = try pool.withConnection { connection in
            try connection.pipeline([PGStatement("CREATE TABLE t (v bigint PRIMARY KEY)"), PGStatement("INSERT INTO t VALUES ($1)", seven),
                                     PGStatement("SELECT v + 1 FROM t")])
        }
        #expect(results.count == 3)
        #expect(try results[2][0].decode(Int64.self) == 8)
        #expect {
            try pool.transaction { connection in
                _ = try connection.pipeline([PGStatement("INSERT INTO t VALUES (8)"), PGStatement("INSERT INTO t VALUES ($1)", seven),
                                             PGStatement("INSERT INTO t VALUES (9)")])
            }
        } throws: { error in
            guard case StoreError.postgreSQL(_, let state, _) = error else { return false }
            return state == "23505"
        }
        let stored = try pool.withConnection { try $0.query("SELECT array_agg(v ORDER BY v) FROM t")[0].decode([Int64].self) }
        #expect(stored == [7], "the failed transaction left nothing, and the connection works")
    }

    /// Runs `body` with a pool on a new schema of the test server (its `search_path`), dropped
    /// afterwards.
    private func withScratchSchema(maximumConnections: Int, _ body: (PostgreSQLConnectionPool) throws -> Void) throws {
        let url = try PostgreSQLStoreURL(parsing: PostgreSQLTestServer.freshStoreURL()!)
        let pool = try PostgreSQLConnectionPool(url: url, maximumConnections: maximumConnections)
        defer { pool.close() }
        try pool.withConnection { try $0.execute("CREATE SCHEMA \(sqlIdentifier(url.schema))") }
        defer { _ = try? pool.withConnection { try $0.execute("DROP SCHEMA \(sqlIdentifier(url.schema)) CASCADE") } }
        try body(pool)
    }
}
