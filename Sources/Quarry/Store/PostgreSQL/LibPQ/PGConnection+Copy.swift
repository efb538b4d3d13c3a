import CLibPQ
import Foundation

extension PGConnection {
    /// Runs `sql`, a `COPY … FROM STDIN (FORMAT binary)`, with the rows `rows` writes as its
    /// input; returns how many rows the server stored.
    ///
    /// One statement for any number of rows: the server parses no statement text per row and
    /// checks each row's types once. The rows are sent while `rows` still makes them (every
    /// ``PGCopyWriter/flushBytes``), so the server stores the first ones while the client
    /// makes the next. A row the server refuses (a uniqueness clash, a `NOT NULL` column) fails
    /// the whole `COPY`, and nothing of it is stored; so does an error `rows` throws.
    /// - Throws: ``PGError``: the server's error (with its SQLSTATE), or the connection's; or
    ///   `rows`' error.
    @discardableResult
    func copyIn(_ sql: String, rows: (inout PGCopyWriter) throws -> Void) throws -> Int {
        guard let started = PQexec(handle, sql) else { throw PGError.connection(PGError.message(handle)) }
        guard PQresultStatus(started) == PGRES_COPY_IN else {
            let error = PGError.from(started, connection: handle)
            PQclear(started)
            throw error
        }
        PQclear(started)
        var writer = PGCopyWriter(connection: self)
        var failure: (any Error)?
        do {
            try rows(&writer)
            writer.finish()
            failure = writer.failure
        } catch {
            failure = error
        }
        // Ending the copy with an error message makes the server refuse all of it.
        let ended = failure == nil ? PQputCopyEnd(handle, nil) : PQputCopyEnd(handle, "the client stopped the copy")
        if ended != 1, failure == nil { failure = PGError.connection(PGError.message(handle)) }
        var stored = 0
        while let raw = PQgetResult(handle) {
            if PQresultStatus(raw) == PGRES_COMMAND_OK {
                stored = Int(String(cString: PQcmdTuples(raw))) ?? 0
            } else if failure == nil {
                failure = PGError.from(raw, connection: handle)
            }
            PQclear(raw)
        }
        if let failure { throw failure }
        return stored
    }

    /// Hands `bytes` to libpq as `COPY` data; `false` when the connection failed.
    fileprivate func putCopyData(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) == 1 }
        }
    }
}

/// The rows of a binary `COPY … FROM STDIN` as they are written (see
/// ``PGConnection/copyIn(_:rows:)``): PostgreSQL's binary copy format, a signature, then each
/// row as its field count and each field's length and bytes, then `-1`; handed to libpq in
/// pieces of about ``flushBytes``.
struct PGCopyWriter: PGFieldWriter {
    /// How many bytes are gathered before they are sent.
    static let flushBytes = 256 << 10
    private let connection: PGConnection
    private var buffer: [UInt8] = []
    /// Set when sending failed; what is written after that is dropped.
    private(set) var failure: PGError?

    fileprivate init(connection: PGConnection) {
        self.connection = connection
        buffer.reserveCapacity(Self.flushBytes + 4096)
        buffer.append(contentsOf: Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00])
        buffer.appendBigEndian(UInt32(0))  // flags
        buffer.appendBigEndian(UInt32(0))  // header extension length
    }

    /// Starts a row of `fields` fields; the values that follow are its fields, in order.
    mutating func beginRow(fields: Int) {
        if buffer.count >= Self.flushBytes { flush() }
        buffer.appendBigEndian(UInt16(fields))
    }

    mutating func appendNull() { buffer.appendBigEndian(UInt32(bitPattern: -1)) }

    mutating func append(_ value: Int64) {
        buffer.appendBigEndian(UInt32(8))
        buffer.appendBigEndian(value)
    }

    mutating func append(_ value: Double) {
        buffer.appendBigEndian(UInt32(8))
        buffer.appendBigEndian(value.bitPattern)
    }

    mutating func append(_ value: String) {
        let utf8 = value.utf8
        buffer.appendBigEndian(UInt32(utf8.count))
        buffer.append(contentsOf: utf8)
    }

    mutating func append(_ value: Data) {
        buffer.appendBigEndian(UInt32(value.count))
        buffer.append(contentsOf: value)
    }

    mutating func append(bytes value: [UInt8]) {
        buffer.appendBigEndian(UInt32(value.count))
        buffer.append(contentsOf: value)
    }

    /// Writes the end marker and sends what is left.
    fileprivate mutating func finish() {
        buffer.appendBigEndian(UInt16.max)
        flush()
    }

    private mutating func flush() {
        guard failure == nil, !buffer.isEmpty else { return }
        if !connection.putCopyData(buffer) { failure = .connection(PGError.message(connection.handle)) }
        buffer.removeAll(keepingCapacity: true)
    }
}
