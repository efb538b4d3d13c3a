import Foundation
import Synchronization

/// A small pool of libpq connections (``PGConnection``) to one store URL, used through
/// blocking calls on the caller's thread.
///
/// Connections are made on demand, at most ``maximumConnections`` at a time (a caller waits
/// for one to be returned); each starts with the store's schema as its `search_path` and
/// `application_name` `quarry`. A statement run under a ``QueryCancellation`` is cancelled
/// through libpq's cancel request when the token is (see
/// `PostgreSQLConnectionPool+Cancellation.swift`). Callers are the contexts' queues, the
/// stack's listener queue and command threads.
final class PostgreSQLConnectionPool: Sendable {
    /// The store's URL (its password never shown).
    let url: PostgreSQLStoreURL
    /// The most connections open at once.
    let maximumConnections: Int
    private let parameters: [(key: String, value: String)]
    private let state = Mutex(State())
    private let returned = NSCondition()
    /// Sends the cancel requests of cancelled statements.
    let canceller = PostgreSQLBackendCanceller()
    /// Tests only: run on the connection before each query started under a
    /// ``QueryCancellation``, as part of that query (e.g. a `pg_sleep` making a fetch slow); it
    /// gets libpq's connection, so its own statements are not wrapped again.
    package let beforeCancellableQuery = Mutex<(@Sendable (PGConnection) throws -> Void)?>(nil)

    private struct State {
        var idle: [PGConnection] = []
        var open = 0
        var closed = false
    }

    /// A pool for `url`; connects once to check the server, the credentials and the database.
    ///
    /// - Parameter readOnlySessions: Every connection a read-only session
    ///   (`default_transaction_read_only`), so the server refuses any write on it: how a schema
    ///   Quarry did not make is read.
    /// - Throws: ``StoreError/postgreSQL(store:sqlState:message:)`` saying why the first
    ///   connection failed (no server, refused password, unknown database).
    init(url: PostgreSQLStoreURL, maximumConnections: Int = 4, readOnlySessions: Bool = false) throws {
        self.url = url
        self.maximumConnections = maximumConnections
        self.parameters = url.connectionParameters.map { parameter in
            guard readOnlySessions, parameter.key == "options" else { return parameter }
            return (parameter.key, parameter.value + " -c default_transaction_read_only=on")
        }
        try withConnection { _ in }
    }

    deinit { close() }

    /// Runs `body` with a connection of the pool (made when none is idle), then returns it.
    ///
    /// A connection that failed (closed by the server, a network error) is dropped, not
    /// returned, so the next call makes a new one.
    func withConnection<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(PostgreSQLConnection(connection: connection, pool: self))
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
        withExtendedLifetime(idle) {}  // closed (PQfinish) as the last reference goes
        returned.broadcast()
    }

    /// Makes a new connection to the store's server (the listener keeps one of its own).
    /// - Throws: ``StoreError/postgreSQL(store:sqlState:message:)`` saying why it failed, in
    ///   words a user acts on (see ``PostgreSQLConnectionFailure``).
    func connect() throws -> PGConnection {
        do {
            return try PGConnection(parameters: parameters)
        } catch let error as PGError {
            throw StoreError.postgreSQL(store: url.description, sqlState: "",
                                        message: PostgreSQLConnectionFailure.message(for: error.description, url: url))
        }
    }

    /// libpq's `error` as a ``StoreError`` naming the store (a server error keeps its
    /// SQLSTATE); any other error (a row handler's, a decoding error) as it is.
    func error(_ error: any Error) -> any Error {
        guard let pg = error as? PGError else { return error }
        return StoreError.postgreSQL(store: url.description, sqlState: pg.sqlState, message: pg.description)
    }

    func checkOut() throws -> PGConnection {
        returned.lock()
        defer { returned.unlock() }
        while true {
            enum Next { case use(PGConnection), make, wait, closed }
            let next: Next = state.withLock { s in
                if s.closed { return .closed }
                while let connection = s.idle.popLast() {
                    if !connection.isBroken { return .use(connection) }
                    s.open -= 1
                }
                if s.open < maximumConnections { s.open += 1; return .make }
                return .wait
            }
            switch next {
            case .use(let connection): return connection
            case .closed: throw StoreError.postgreSQL(store: url.description, sqlState: "", message: "the store was closed")
            case .wait: returned.wait()
            case .make:
                returned.unlock()
                defer { returned.lock() }
                do {
                    return try connect()
                } catch {
                    state.withLock { $0.open -= 1 }
                    throw error
                }
            }
        }
    }

    func checkIn(_ connection: PGConnection) {
        state.withLock { s in
            if connection.isBroken || s.closed {
                s.open -= 1
            } else {
                s.idle.append(connection)
            }
        }
        returned.lock()
        returned.signal()
        returned.unlock()
    }
}

/// One checked-out connection of a ``PostgreSQLConnectionPool``, with blocking calls whose
/// errors name the store.
///
/// Only valid inside the pool's `withConnection`/`transaction` block that handed it out.
struct PostgreSQLConnection {
    /// libpq's connection.
    let connection: PGConnection
    /// The pool it belongs to (error mapping, the store's URL).
    let pool: PostgreSQLConnectionPool

    /// The server process serving this connection (`pg_backend_pid()`).
    var backendPID: Int32 { connection.backendPID }

    /// Runs `sql` with `binds` (`$1`, `$2`, …) and returns every row; under a current
    /// ``QueryCancellation``, cancellable (see ``cancellable(_:)``).
    func query(_ sql: String, _ binds: PGBindings = PGBindings()) throws -> PGResult {
        try cancellable { try connection.query(sql, binds) }
    }

    /// Runs `sql` with `binds`, calling `body` with each row as it arrives (nothing is kept).
    func forEachRow(_ sql: String, _ binds: PGBindings = PGBindings(), _ body: (PGRow) throws -> Void) throws {
        try cancellable { try connection.forEachRow(sql, binds, body) }
    }

    /// Runs `sql` with `binds`, ignoring any rows; returns how many rows it affected.
    @discardableResult
    func execute(_ sql: String, _ binds: PGBindings = PGBindings()) throws -> Int {
        try cancellable { try connection.execute(sql, binds) }
    }

    /// Runs `sql`, a binary `COPY … FROM STDIN`, with the rows `rows` writes as its input;
    /// returns how many rows were stored (see ``PGConnection/copyIn(_:rows:)``).
    @discardableResult
    func copyIn(_ sql: String, rows: (inout PGCopyWriter) throws -> Void) throws -> Int {
        try cancellable { try connection.copyIn(sql, rows: rows) }
    }

    /// Runs `statements` in one round trip (see ``PGConnection/pipeline(_:)``); returns each
    /// one's result.
    func pipeline(_ statements: [PGStatement]) throws -> [PGResult] {
        try cancellable { try connection.pipeline(statements) }
    }
}
