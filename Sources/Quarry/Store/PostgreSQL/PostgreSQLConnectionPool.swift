#if PostgreSQL
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// The one place where Quarry's synchronous store protocol meets PostgresNIO's asynchronous
/// driver: a small pool of connections to one store URL, used through blocking calls.
///
/// Every call blocks its caller until PostgresNIO's event loop (`MultiThreadedEventLoopGroup
/// .singleton`, SwiftNIO's shared threads) has the answer: the driver's `EventLoopFuture`s are
/// awaited with `wait()`, so no Swift-concurrency task is involved and a caller on the
/// cooperative pool (a test, an `async` command) cannot starve the driver. The pool must never
/// be called from an event-loop thread (SwiftNIO checks: `wait()` there traps). Callers are the
/// contexts' queues, the stack's listener queue and command threads.
///
/// Connections are made on demand, at most ``maximumConnections`` at a time (a caller waits
/// for one to be returned), and each starts with the store's schema as its `search_path`; its
/// backend PID is read once when it is made, so a query run under a ``QueryCancellation`` can
/// be cancelled from another connection (see `PostgreSQLConnectionPool+Cancellation.swift`).
final class PostgreSQLConnectionPool: Sendable {
    /// The store's URL (its password never shown).
    let url: PostgreSQLStoreURL
    /// The most connections open at once.
    let maximumConnections: Int
    private let configuration: PostgresConnection.Configuration
    private let group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    private let logger = Logger(label: "Quarry.PostgreSQL", factory: { _ in SwiftLogNoOpLogHandler() })
    private let state = Mutex(State())
    private let returned = NSCondition()
    /// Sends `pg_cancel_backend` for queries whose token was cancelled.
    let canceller = PostgreSQLBackendCanceller()
    /// Tests only: run on the connection before each query started under a
    /// ``QueryCancellation``, as part of that query (e.g. a `pg_sleep` making a fetch slow); it
    /// gets the driver's connection, so its own statements are not wrapped again.
    package let beforeCancellableQuery = Mutex<(@Sendable (PostgresConnection) throws -> Void)?>(nil)

    /// A pooled connection and its server process (`pg_backend_pid()`).
    private struct Pooled {
        let connection: PostgresConnection
        let backendPID: Int32
    }

    private struct State {
        var idle: [Pooled] = []
        var open = 0
        var nextID = 0
        var closed = false
    }

    /// A pool for `url`; connects once to check the server, the credentials and the database.
    ///
    /// - Throws: ``StoreError/postgreSQL(store:sqlState:message:)`` saying why the first
    ///   connection failed (no server, refused password, unknown database).
    init(url: PostgreSQLStoreURL, maximumConnections: Int = 4,
         environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.url = url
        self.maximumConnections = maximumConnections
        let tls: PostgresConnection.Configuration.TLS
        switch url.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try Self.tlsContext(url))
        case .require: tls = .require(try Self.tlsContext(url))
        }
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password(environment: environment),
            database: url.database, tls: tls)
        configuration.options.additionalStartupParameters = [
            ("search_path", sqlIdentifier(url.schema)),
            ("application_name", "quarry"),
        ]
        configuration.options.connectTimeout = .seconds(10)
        self.configuration = configuration
        try withConnection { _ in }
    }

    deinit { close() }

    /// Runs `body` with a connection of the pool (made when none is idle), then returns it.
    ///
    /// A connection that failed (closed by the server, a network error) is dropped, not
    /// returned, so the next call makes a new one.
    func withConnection<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        let pooled = try checkOut()
        defer { checkIn(pooled) }
        return try body(PostgreSQLConnection(connection: pooled.connection, pool: self, backendPID: pooled.backendPID))
    }

    /// Runs `body` in one transaction (`BEGIN` … `COMMIT`, `ROLLBACK` when it throws).
    func transaction<T>(isolation: String = "READ COMMITTED", _ body: (PostgreSQLConnection) throws -> T) throws -> T {
        try withConnection { connection in
            try connection.execute("BEGIN ISOLATION LEVEL \(isolation)")
            do {
                let result = try body(connection)
                try connection.execute("COMMIT")
                return result
            } catch {
                // Never cancelled itself: a connection given back must not be left in a transaction.
                _ = try? QueryCancellation.$current.withValue(nil) { try connection.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// Closes every idle connection; connections in use close when returned.
    func close() {
        let idle = state.withLock { s in
            s.closed = true
            defer { s.idle.removeAll() }
            return s.idle
        }
        // Closing a connection being discarded: nothing to lose if it fails.
        for pooled in idle { try? pooled.connection.close().wait() }
        canceller.close()
        returned.broadcast()
    }

    /// Makes a new connection to the store's server (the listener keeps one of its own).
    func connect() throws -> PostgresConnection {
        let id = state.withLock { s in s.nextID += 1; return s.nextID }
        do {
            return try PostgresConnection.connect(on: group.any(), configuration: configuration, id: id, logger: logger).wait()
        } catch {
            if let message = PostgreSQLConnectionFailure.message(for: error, url: url) {
                throw StoreError.postgreSQL(store: url.description, sqlState: (error as? PSQLError)?.serverInfo?[.sqlState] ?? "", message: message)
            }
            throw self.error(error)
        }
    }

    /// `error` as a ``StoreError`` naming the store (a server error keeps its SQLSTATE).
    func error(_ error: any Error) -> any Error {
        if error is StoreError || error is MergeConflictError { return error }
        if let psql = error as? PSQLError {
            if let message = psql.serverInfo?[.message] {
                var text = message
                if let detail = psql.serverInfo?[.detail] { text += " (\(detail))" }
                return StoreError.postgreSQL(store: url.description, sqlState: psql.serverInfo?[.sqlState] ?? "", message: text)
            }
            let reason = psql.underlying.map { String(describing: $0) } ?? psql.code.description
            return StoreError.postgreSQL(store: url.description, sqlState: "", message: "\(psql.code.description): \(reason)")
        }
        return StoreError.postgreSQL(store: url.description, sqlState: "", message: String(describing: error))
    }

    /// A new connection for the pool, with its backend PID.
    private func makePooled() throws -> Pooled {
        let connection = try connect()
        do {
            let rows = try connection.query("SELECT pg_backend_pid()", logger: logger).wait().rows
            guard let pid = try rows.first?.decode(Int32.self) else {
                throw StoreError.postgreSQL(store: url.description, sqlState: "", message: "pg_backend_pid() returned no row")
            }
            return Pooled(connection: connection, backendPID: pid)
        } catch {
            // Closing a connection being discarded: nothing to lose if it fails.
            try? connection.close().wait()
            throw self.error(error)
        }
    }

    private func checkOut() throws -> Pooled {
        returned.lock()
        defer { returned.unlock() }
        while true {
            enum Next { case use(Pooled), make, wait, closed }
            let next: Next = state.withLock { s in
                if s.closed { return .closed }
                while let pooled = s.idle.popLast() {
                    if !pooled.connection.isClosed { return .use(pooled) }
                    s.open -= 1
                }
                if s.open < maximumConnections { s.open += 1; return .make }
                return .wait
            }
            switch next {
            case .use(let pooled): return pooled
            case .closed: throw StoreError.postgreSQL(store: url.description, sqlState: "", message: "the store was closed")
            case .wait: returned.wait()
            case .make:
                returned.unlock()
                defer { returned.lock() }
                do {
                    return try makePooled()
                } catch {
                    state.withLock { $0.open -= 1 }
                    throw error
                }
            }
        }
    }

    private func checkIn(_ pooled: Pooled) {
        let keep = state.withLock { s in
            if pooled.connection.isClosed || s.closed { s.open -= 1; return false }
            s.idle.append(pooled)
            return true
        }
        // Waited for: PostgresNIO asserts that a connection is closed before it is released.
        if !keep { try? pooled.connection.close().wait() }
        returned.lock()
        returned.signal()
        returned.unlock()
    }

    private static func tlsContext(_ url: PostgreSQLStoreURL) throws -> NIOSSLContext {
        do {
            return try NIOSSLContext(configuration: .makeClientConfiguration())
        } catch {
            throw StoreError.postgreSQL(store: url.description, sqlState: "", message: "TLS set-up failed: \(error)")
        }
    }
}

/// One checked-out connection of a ``PostgreSQLConnectionPool``, with blocking calls.
///
/// Only valid inside the pool's `withConnection`/`transaction` block that handed it out.
struct PostgreSQLConnection {
    /// The driver's connection.
    let connection: PostgresConnection
    /// The pool it belongs to (error mapping, the store's URL).
    let pool: PostgreSQLConnectionPool
    /// The server process serving this connection (`pg_backend_pid()`), for cancelling.
    let backendPID: Int32

    /// Runs `sql` with `binds` (`$1`, `$2`, …) and returns every row; under a current
    /// ``QueryCancellation``, cancellable (see ``cancellable(_:)``).
    func query(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> [PostgresRow] {
        try cancellable {
            try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: connection.logger).wait().rows
        }
    }

    /// Runs `sql` with `binds`, calling `body` with each row as it arrives (nothing is kept).
    func forEachRow(_ sql: String, _ binds: PostgresBindings = PostgresBindings(),
                    _ body: @escaping @Sendable (PostgresRow) throws -> Void) throws {
        try cancellable {
            _ = try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: connection.logger, body).wait()
        }
    }

    /// Runs `sql` with `binds`, ignoring any rows; returns how many rows it affected.
    @discardableResult
    func execute(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> Int {
        try cancellable {
            try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: connection.logger).wait().metadata.rows ?? 0
        }
    }
}

#endif
