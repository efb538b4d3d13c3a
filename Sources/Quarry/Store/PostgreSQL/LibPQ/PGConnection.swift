import CLibPQ
import Foundation

/// One connection to a PostgreSQL server through libpq, PostgreSQL's own client library: every
/// call blocks the calling thread until the server answered, as GRDB's calls into SQLite do.
///
/// Statements go out with their parameters typed and in binary format (``PGBindings``) and
/// come back in binary format (``PGResult``). ``forEachRow(_:_:_:)`` streams a result row by
/// row (libpq's single-row mode), so a million rows are never held at once. Server notices
/// (`NOTICE: … skipping`) are dropped instead of printed on stderr, where they would tear a
/// terminal screen.
///
/// `@unchecked Sendable`: libpq's `PGconn` must be used by one thread at a time, and a
/// `PGConnection` is, by construction: the pool hands each to one caller at a time (check-out
/// to check-in) and a listener's connection is used only on its wait thread once it listens.
/// The one call made from other threads, ``cancel()``, goes through libpq's `PGcancel`, which
/// libpq allows from any thread.
final class PGConnection: @unchecked Sendable {
    /// libpq's connection (`PGconn`), for the LibPQ files' extensions.
    let handle: OpaquePointer
    private let canceller: OpaquePointer?
    /// The server process serving this connection (`pg_backend_pid()`).
    let backendPID: Int32

    /// Connects with libpq's connection parameters (`host`, `port`, `dbname`, `user`,
    /// `sslmode`, …, see libpq's documentation); libpq itself adds what the environment and the
    /// password file say (`PGPASSWORD`, `PGPASSFILE` or `~/.pgpass`, `PGSERVICE`, …).
    /// - Throws: ``PGError/connection(_:)`` with libpq's message when it fails, or saying that
    ///   libpq itself could not be loaded (it is opened on the first connection, not at launch).
    init(parameters: [(key: String, value: String)]) throws {
        if let loadError = quarry_libpq_load() { throw PGError.connection(String(cString: loadError)) }
        let keys: [UnsafePointer<CChar>?] = parameters.map { UnsafePointer(strdup($0.key)) } + [nil]
        let values: [UnsafePointer<CChar>?] = parameters.map { UnsafePointer(strdup($0.value)) } + [nil]
        defer {
            for pointer in keys + values { free(UnsafeMutablePointer(mutating: pointer)) }
        }
        guard let connection = PQconnectdbParams(keys, values, 0) else {
            throw PGError.connection("libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = PGError.message(connection)
            PQfinish(connection)
            throw PGError.connection(message)
        }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
        canceller = PQgetCancel(connection)
        backendPID = PQbackendPID(connection)
    }

    deinit {
        if let canceller { PQfreeCancel(canceller) }
        PQfinish(handle)
    }

    /// Whether the connection is lost (a statement failed on it without the server answering,
    /// or it was closed): a pool drops it instead of handing it out again.
    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// Runs `sql` with `binds` (`$1`, `$2`, …) and returns its whole result.
    /// - Throws: ``PGError``: the server's error, or the connection's.
    func query(_ sql: String, _ binds: PGBindings = PGBindings()) throws -> PGResult {
        let raw = binds.withParameterArrays { types, values, lengths, formats in
            PQexecParams(handle, sql, Int32(binds.count), types, values, lengths, formats, 1)
        }
        guard let raw else { throw PGError.connection(PGError.message(handle)) }
        switch PQresultStatus(raw) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PGResult(raw)
        default:
            let error = PGError.from(raw, connection: handle)
            PQclear(raw)
            throw error
        }
    }

    /// Runs `sql` with `binds` and calls `body` with each row as it arrives; nothing is kept.
    ///
    /// When `body` throws, the statement is cancelled on the server, the rest of its result
    /// read and dropped (the connection stays usable), and `body`'s error thrown.
    /// - Throws: ``PGError``, or `body`'s error.
    func forEachRow(_ sql: String, _ binds: PGBindings = PGBindings(), _ body: (PGRow) throws -> Void) throws {
        let sent = binds.withParameterArrays { types, values, lengths, formats in
            PQsendQueryParams(handle, sql, Int32(binds.count), types, values, lengths, formats, 1)
        }
        guard sent == 1 else { throw PGError.connection(PGError.message(handle)) }
        PQsetSingleRowMode(handle)
        var failure: (any Error)?
        while let raw = PQgetResult(handle) {
            switch PQresultStatus(raw) {
            case PGRES_SINGLE_TUPLE:
                let result = PGResult(raw)
                guard failure == nil else { continue }
                do {
                    try body(PGRow(result: result, row: 0))
                } catch {
                    failure = error
                    cancel()
                }
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
                PQclear(raw)
            default:
                if failure == nil { failure = PGError.from(raw, connection: handle) }
                PQclear(raw)
            }
        }
        if let failure { throw failure }
    }

    /// Runs `sql` with `binds`, ignoring any rows; returns how many rows it changed.
    /// - Throws: ``PGError``.
    @discardableResult
    func execute(_ sql: String, _ binds: PGBindings = PGBindings()) throws -> Int {
        try query(sql, binds).affectedRows
    }

    /// Asks the server to cancel the statement running on this connection, if any (a cancel
    /// that arrives between statements is ignored by the server). Callable from any thread;
    /// blocks while the request is sent on a connection of its own. Returns whether it was sent.
    @discardableResult
    func cancel() -> Bool {
        guard let canceller else { return false }
        var message = [CChar](repeating: 0, count: 256)
        return PQcancel(canceller, &message, Int32(message.count)) == 1
    }

    // MARK: Notifications

    /// A notification (`NOTIFY channel, 'payload'`) received on a connection that listens.
    struct Notification: Sendable, Equatable {
        /// The channel.
        var channel: String
        /// The payload (`""` when none).
        var payload: String
        /// The server process that sent it.
        var senderPID: Int32
    }

    /// What ended a ``waitForNotifications(wakingOn:)``.
    enum WaitOutcome: Sendable {
        /// Notifications arrived (at least one).
        case notified([Notification])
        /// `wakingOn` became readable.
        case woken
        /// The connection was lost.
        case lost(PGError)
    }

    /// Blocks until a notification arrives on this connection (it must `LISTEN`), the
    /// connection is lost, or the descriptor `wake` becomes readable (how another thread stops
    /// the wait).
    func waitForNotifications(wakingOn wake: Int32) -> WaitOutcome {
        while true {
            var received: [Notification] = []
            while let notice = PQnotifies(handle) {
                received.append(Notification(channel: String(cString: notice.pointee.relname),
                                             payload: notice.pointee.extra.map { String(cString: $0) } ?? "",
                                             senderPID: notice.pointee.be_pid))
                PQfreemem(notice)
            }
            if !received.isEmpty { return .notified(received) }
            let socket = PQsocket(handle)
            guard socket >= 0, !isBroken else { return .lost(.connection(PGError.message(handle))) }
            var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .lost(.connection("waiting for notifications failed: \(String(cString: strerror(errno)))"))
            }
            if descriptors[1].revents != 0 { return .woken }
            if descriptors[0].revents != 0, PQconsumeInput(handle) == 0 {
                return .lost(.connection(PGError.message(handle)))
            }
        }
    }
}
