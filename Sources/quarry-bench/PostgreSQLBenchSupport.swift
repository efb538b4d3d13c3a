#if PostgreSQL
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Quarry

/// The PostgreSQL server of the `pg-` scenarios: `QUARRY_BENCH_POSTGRES_URL`, else the test
/// server's `QUARRY_TEST_POSTGRES_URL` (`bash scripts/postgres.sh url`; the password from
/// `PGPASSWORD` or `PGPASSFILE`/`~/.pgpass`, as for any store URL).
func benchPostgreSQLServer(_ scenario: String) throws -> String {
    let environment = ProcessInfo.processInfo.environment
    for key in ["QUARRY_BENCH_POSTGRES_URL", "QUARRY_TEST_POSTGRES_URL"] {
        if let url = environment[key], !url.isEmpty { return url }
    }
    throw BenchError.usage("""
        \(scenario) needs a PostgreSQL server: set QUARRY_BENCH_POSTGRES_URL (or QUARRY_TEST_POSTGRES_URL) \
        to postgres://user@host:port/database, e.g. export QUARRY_BENCH_POSTGRES_URL=$(bash scripts/postgres.sh url) \
        PGPASSFILE=$(bash scripts/postgres.sh pgpass)
        """)
}

/// A store URL on `server` in a new schema of its own (`<label>_<random>`), so runs never
/// share tables; the scenario drops it when done.
func benchPostgreSQLStoreURL(server: String, label: String) throws -> PostgreSQLStoreURL {
    let schema = "\(label)_\(UUID().uuidString.prefix(8).lowercased())"
    return try PostgreSQLStoreURL(parsing: server + (server.contains("?") ? "&" : "?") + "schema=\(schema)")
}

/// Runs `body` (PostgresNIO's async API, for the raw sides) to completion from synchronous
/// scenario code: the calling thread waits while the task runs on the cooperative pool.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, any Error>?
    Task {
        do { result = .success(try await body()) } catch { result = .failure(error) }
        done.signal()
    }
    done.wait()
    // Written by the task before the signal, read after the wait.
    return try result!.get()
}

/// A raw PostgresNIO connection to `url`'s server with `url`'s schema as its `search_path`
/// (no TLS: the raw sides measure the driver on loopback).
func rawPostgreSQLConnection(_ url: PostgreSQLStoreURL) async throws -> PostgresConnection {
    guard url.tls != .require else {
        throw BenchError.usage("the raw PostgresNIO side connects without TLS: use a loopback server or sslmode=disable")
    }
    var configuration = PostgresConnection.Configuration(
        host: url.host, port: url.port, username: url.user, password: url.password(),
        database: url.database, tls: .disable)
    configuration.options.additionalStartupParameters = [("search_path", "\"\(url.schema)\"")]
    return try await PostgresConnection.connect(
        on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: rawLogger).get()
}

/// PostgresNIO's logger for the raw sides (silent).
let rawLogger = Logger(label: "quarry-bench", factory: { _ in SwiftLogNoOpLogHandler() })

/// Runs `sql` (no binds, no rows wanted) on `connection`.
func rawExecute(_ connection: PostgresConnection, _ sql: String) async throws {
    _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: rawLogger)
}
#endif
