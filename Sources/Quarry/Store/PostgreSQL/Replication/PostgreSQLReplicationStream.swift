import Foundation

/// One logical replication session on a server: a replication connection
/// (`replication=database`), a temporary slot of the `pgoutput` plug-in (dropped by the server
/// when the session ends, so a crashed reader never leaves a slot holding back the server's
/// write-ahead log), and the stream of changes to `publication`'s tables committed after the
/// slot was made.
///
/// Used by one thread (the feed's); ``acknowledge(_:)`` tells the server how far changes were
/// handled, so it may recycle the log behind them.
final class PostgreSQLReplicationStream {
    /// What the stream delivered next.
    enum Event {
        /// A decoded `pgoutput` message.
        case message(PGOutputMessage)
        /// Nothing for a while, or the server asked for a status: time to acknowledge.
        case idle
        /// ``PostgreSQLReplicationStream/next(wakingOn:)``'s wake descriptor was written.
        case woken
    }

    private let connection: PGConnection
    /// The slot's name (`quarry_` and 16 hex digits).
    let slot: String
    /// The end of the last commit handled (``acknowledge(_:)``).
    private(set) var acknowledged: UInt64 = 0
    private var lastStatus = DispatchTime.now()

    /// How long the stream waits before it acknowledges again unasked (the server's
    /// `wal_sender_timeout` is 60 s by default).
    static let statusInterval: Int32 = 10_000

    /// Connects, makes the slot and starts streaming `publication`'s changes.
    /// - Throws: ``PGError`` with the server's reason (no replication rights, no such
    ///   publication, `wal_level` not `logical`, too many slots).
    init(url: PostgreSQLStoreURL, publication: String) throws {
        connection = try PGConnection(parameters: url.connectionParameters + [("replication", "database")])
        slot = "quarry_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        _ = try connection.simpleQuery("CREATE_REPLICATION_SLOT \(slot) TEMPORARY LOGICAL pgoutput NOEXPORT_SNAPSHOT")
        let names = sqlIdentifier(publication)
        try connection.startCopyBoth(
            "START_REPLICATION SLOT \(slot) LOGICAL 0/0 (proto_version '1', publication_names \(sqlQuoted(names, by: "'")))")
    }

    /// The next event, waiting at most ``statusInterval``; returns ``Event/woken`` once `wake`
    /// is readable.
    /// - Throws: ``PGError`` when the stream or the connection ended, or
    ///   ``PGOutputMessage/DecodingError`` for a message that cannot be read.
    func next(wakingOn wake: Int32) throws -> Event {
        switch connection.nextCopyMessage(wakingOn: wake, timeout: Self.statusInterval) {
        case .woken: return .woken
        case .timedOut: return .idle
        case .ended(let error): throw error
        case .message(let bytes):
            guard let kind = bytes.first else { return .idle }
            switch kind {
            case UInt8(ascii: "w"):
                // XLogData: start, end and send time (8 bytes each), then the message.
                guard bytes.count > 25 else { throw PGOutputMessage.DecodingError(description: "short XLogData") }
                return .message(try PGOutputMessage(decoding: bytes[25...]))
            case UInt8(ascii: "k"):
                // Keepalive: WAL end, send time, then whether a reply is wanted now.
                let replyWanted = bytes.count >= 18 && bytes[17] == 1
                return replyWanted || statusDue ? .idle : try next(wakingOn: wake)
            default:
                return .idle
            }
        }
    }

    private var statusDue: Bool {
        DispatchTime.now().uptimeNanoseconds - lastStatus.uptimeNanoseconds > UInt64(Self.statusInterval) * 1_000_000
    }

    /// Tells the server every change up to `position` was handled (`0`: the last position
    /// acknowledged, as a keepalive).
    /// - Throws: ``PGError/connection(_:)`` when it cannot be sent.
    func acknowledge(_ position: UInt64 = 0) throws {
        if position > acknowledged { acknowledged = position }
        // Standby status update: written, flushed and applied positions, the client's clock in
        // microseconds since 2000-01-01, and no reply wanted.
        let clock = UInt64(max(0, (Date().timeIntervalSince1970 - 946_684_800) * 1_000_000))
        var message: [UInt8] = [UInt8(ascii: "r")]
        for value in [acknowledged, acknowledged, acknowledged, clock] {
            for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        message.append(0)
        try connection.sendCopyData(message)
        lastStatus = DispatchTime.now()
    }
}
