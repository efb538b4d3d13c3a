import CLibPQ
import Foundation

/// What a replication connection (`replication=database`) needs beyond statements: replication
/// commands in the simple query protocol, and the `COPY BOTH` stream logical replication runs
/// in (see ``PostgreSQLReplicationStream``).
extension PGConnection {
    /// What waiting for the next message of a `COPY BOTH` stream ended with.
    enum CopyOutcome {
        /// One `CopyData` message's bytes.
        case message([UInt8])
        /// Nothing arrived within the timeout (time to send a status update).
        case timedOut
        /// The wake descriptor was written.
        case woken
        /// The stream or the connection ended.
        case ended(PGError)
    }

    /// Runs `sql` (a replication command, or SQL a walsender accepts) in the simple query
    /// protocol, which is all a replication connection speaks, and returns its rows as text.
    /// - Throws: ``PGError``: the server's error, or the connection's.
    func simpleQuery(_ sql: String) throws -> [[String?]] {
        guard let result = PQexec(handle, sql) else { throw PGError.connection(PGError.message(handle)) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK:
            return (0..<PQntuples(result)).map { row in
                (0..<PQnfields(result)).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                }
            }
        default:
            throw PGError.from(result, connection: handle)
        }
    }

    /// Sends `command` (`START_REPLICATION …`) and returns once the server streams (`COPY BOTH`).
    /// - Throws: ``PGError`` when the server refuses it.
    func startCopyBoth(_ command: String) throws {
        guard let result = PQexec(handle, command) else { throw PGError.connection(PGError.message(handle)) }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COPY_BOTH else { throw PGError.from(result, connection: handle) }
        guard PQsetnonblocking(handle, 1) == 0 else { throw PGError.connection(PGError.message(handle)) }
    }

    /// The next `CopyData` message of the stream, waiting at most `timeout` milliseconds and
    /// returning early when `wake` becomes readable.
    func nextCopyMessage(wakingOn wake: Int32, timeout: Int32) -> CopyOutcome {
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let length = PQgetCopyData(handle, &buffer, 1)
            if length > 0, let buffer {
                defer { PQfreemem(buffer) }
                return .message(Array(UnsafeRawBufferPointer(start: buffer, count: Int(length)).bindMemory(to: UInt8.self)))
            }
            if length == -1 {
                // The stream ended: the server's last result says why.
                let result = PQgetResult(handle)
                defer { if let result { PQclear(result) } }
                if let result, PQresultStatus(result) == PGRES_FATAL_ERROR { return .ended(PGError.from(result, connection: handle)) }
                return .ended(.connection("the server ended the replication stream"))
            }
            if length < -1 { return .ended(.connection(PGError.message(handle))) }
            let socket = PQsocket(handle)
            guard socket >= 0 else { return .ended(.connection(PGError.message(handle))) }
            var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return .ended(.connection("waiting for the replication stream failed: \(String(cString: strerror(errno)))"))
            }
            if ready == 0 { return .timedOut }
            if descriptors[1].revents != 0 { return .woken }
            if PQconsumeInput(handle) == 0 { return .ended(.connection(PGError.message(handle))) }
        }
    }

    /// Sends one `CopyData` message on the stream and flushes it.
    /// - Throws: ``PGError/connection(_:)`` when it cannot be sent.
    func sendCopyData(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
        }
        guard sent == 1 else { throw PGError.connection(PGError.message(handle)) }
        // Non-blocking: 1 means some is still queued, sent with the next flush or wait.
        guard PQflush(handle) >= 0 else { throw PGError.connection(PGError.message(handle)) }
    }
}
