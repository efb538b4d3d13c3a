import CLibPQ

extension PGConnection {
    /// How many bytes of `COPY` data go to libpq per call.
    static let copyChunkBytes = 1 << 20

    /// Runs `sql`, a `COPY … FROM STDIN (FORMAT binary)`, sending `data` (``PGCopyData``'s
    /// bytes) as its input; returns how many rows the server stored.
    ///
    /// One statement, one round trip for any number of rows: the server parses no statement
    /// text per row and checks each row's types once, which is why a bulk write goes this way.
    /// A row the server refuses (a uniqueness clash, a `NOT NULL` column) fails the whole
    /// `COPY`, and nothing of it is stored.
    /// - Throws: ``PGError``: the server's error (with its SQLSTATE), or the connection's.
    @discardableResult
    func copyIn(_ sql: String, data: PGCopyData) throws -> Int {
        guard let started = PQexec(handle, sql) else { throw PGError.connection(PGError.message(handle)) }
        guard PQresultStatus(started) == PGRES_COPY_IN else {
            let error = PGError.from(started, connection: handle)
            PQclear(started)
            throw error
        }
        PQclear(started)
        var sendFailure: PGError?
        data.bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                var offset = 0
                while offset < characters.count {
                    let length = min(Self.copyChunkBytes, characters.count - offset)
                    guard PQputCopyData(handle, characters.baseAddress! + offset, Int32(length)) == 1 else {
                        sendFailure = .connection(PGError.message(handle))
                        return
                    }
                    offset += length
                }
            }
        }
        // Ending the copy with an error message (when sending failed) makes the server refuse it.
        let ended = sendFailure == nil ? PQputCopyEnd(handle, nil) : PQputCopyEnd(handle, "the client could not send the data")
        guard ended == 1 else {
            drainResults()
            throw PGError.connection(PGError.message(handle))
        }
        var stored = 0
        var failure: PGError? = sendFailure
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

    /// Reads and drops whatever results are left, so the connection can run the next statement.
    func drainResults() {
        while let raw = PQgetResult(handle) { PQclear(raw) }
    }
}

/// The input of a binary `COPY … FROM STDIN`: PostgreSQL's binary copy format (a signature,
/// then each row as its field count and each field's length and bytes, then `-1`), made from
/// ``PGBindings`` whose values are the rows' fields in order, each in its column's binary form.
struct PGCopyData: Sendable {
    /// The bytes to send.
    private(set) var bytes: [UInt8]

    /// The rows of `values`, `fieldsPerRow` values each, in order.
    init(rowsOf values: PGBindings, fieldsPerRow: Int) {
        precondition(fieldsPerRow > 0 && values.count % fieldsPerRow == 0,
                     "\(values.count) values are not whole rows of \(fieldsPerRow)")
        let rows = values.count / fieldsPerRow
        bytes = []
        bytes.reserveCapacity(19 + 2 + values.storage.count + values.count * 4 + rows * 2)
        bytes.append(contentsOf: Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00])
        append(UInt32(0))  // flags
        append(UInt32(0))  // header extension length
        values.storage.withUnsafeBufferPointer { storage in
            for row in 0..<rows {
                append(UInt16(fieldsPerRow))
                for field in row * fieldsPerRow..<(row + 1) * fieldsPerRow {
                    let offset = values.offsets[field]
                    if offset < 0 {
                        append(UInt32(bitPattern: -1))
                    } else {
                        let length = Int(values.lengths[field])
                        append(UInt32(length))
                        bytes.append(contentsOf: storage[offset..<offset + length])
                    }
                }
            }
        }
        append(UInt16(bitPattern: -1))
    }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
