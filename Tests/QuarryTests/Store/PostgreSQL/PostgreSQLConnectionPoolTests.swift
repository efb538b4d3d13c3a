#if PostgreSQL
import Foundation
import PostgresNIO
import Testing
@testable import Quarry
import QuarryTestSupport

/// The blocking bridge over PostgresNIO (needs the test server).
@Suite("PostgreSQL connection pool", .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLConnectionPoolTests {
    @Test("a query with bound parameters round-trips; a failed statement names its SQLSTATE and the store")
    func roundTrip() throws {
        let url = try PostgreSQLStoreURL(parsing: PostgreSQLTestServer.url!)
        let pool = try PostgreSQLConnectionPool(url: url)
        defer { pool.close() }
        var binds = PostgresBindings()
        binds.append(Int64(41))
        binds.append("x'y")
        let rows = try pool.withConnection { try $0.query("SELECT $1::bigint + 1, $2::text", binds) }
        let (number, text) = try rows[0].decode((Int64, String).self)
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
        let url = try PostgreSQLStoreURL(parsing: PostgreSQLTestServer.freshStoreURL()!)
        let pool = try PostgreSQLConnectionPool(url: url, maximumConnections: 2)
        defer { pool.close() }
        try pool.withConnection { try $0.execute("CREATE SCHEMA \(sqlIdentifier(url.schema))") }
        defer { _ = try? pool.withConnection { try $0.execute("DROP SCHEMA \(sqlIdentifier(url.schema)) CASCADE") } }
        try pool.withConnection { try $0.execute("CREATE TABLE t (v bigint)") }
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            var binds = PostgresBindings()
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
}
#endif
