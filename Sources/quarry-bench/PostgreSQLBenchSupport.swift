import CLibPQ
import Foundation
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

/// A raw libpq connection to `url`'s server with `url`'s schema as its `search_path`: the raw
/// sides measure PostgreSQL's own client library, called directly, without the store.
final class RawPostgreSQLConnection {
    private let connection: OpaquePointer

    /// Connects with the URL's libpq parameters (password from the URL, `PGPASSWORD` or the
    /// password file, as the store's connections).
    init(_ url: PostgreSQLStoreURL) throws {
        if let loadError = quarry_libpq_load() { throw BenchError.check(String(cString: loadError)) }
        let parameters = url.connectionParameters
        let keys: [UnsafePointer<CChar>?] = parameters.map { UnsafePointer(strdup($0.key)) } + [nil]
        let values: [UnsafePointer<CChar>?] = parameters.map { UnsafePointer(strdup($0.value)) } + [nil]
        defer { for pointer in keys + values { free(UnsafeMutablePointer(mutating: pointer)) } }
        guard let connection = PQconnectdbParams(keys, values, 0) else { throw BenchError.check("libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw BenchError.check("raw connection to \(url): \(message)")
        }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        self.connection = connection
    }

    deinit { PQfinish(connection) }

    /// Runs `sql` (no parameters); returns the first column of the first row, if any.
    @discardableResult
    func execute(_ sql: String) throws -> String? {
        try check(PQexec(connection, sql))
    }

    /// Prepares `sql` as statement `name`.
    func prepare(_ name: String, _ sql: String) throws {
        try check(PQprepare(connection, name, sql, 0, nil))
    }

    /// Runs prepared statement `name` with `parameters` in text format.
    func executePrepared(_ name: String, _ parameters: [String]) throws {
        var copies = parameters.map { strdup($0) }
        defer { for pointer in copies { free(pointer) } }
        let result = copies.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                PQexecPrepared(connection, name, Int32(parameters.count), $0, nil, nil, 0)
            }
        }
        try check(result)
    }

    /// Runs `sql`, a `COPY … FROM STDIN (FORMAT binary)`, with `data` as its input.
    func copyIn(_ sql: String, _ data: [UInt8]) throws {
        guard PQresultStatus(PQexec(connection, sql).map { result in defer { PQclear(result) }; return result }) == PGRES_COPY_IN else {
            throw BenchError.check("raw COPY did not start: \(String(cString: PQerrorMessage(connection)))")
        }
        let sent = data.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(connection, $0.baseAddress, Int32($0.count)) }
        }
        guard sent == 1, PQputCopyEnd(connection, nil) == 1 else {
            throw BenchError.check("raw COPY data not sent: \(String(cString: PQerrorMessage(connection)))")
        }
        var failure: String?
        while let result = PQgetResult(connection) {
            if PQresultStatus(result) != PGRES_COMMAND_OK { failure = String(cString: PQresultErrorMessage(result)) }
            PQclear(result)
        }
        if let failure { throw BenchError.check("raw COPY failed: \(failure)") }
    }

    /// Clears `result` after checking it succeeded; its first value, if any.
    private func check(_ result: OpaquePointer?) throws -> String? {
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw BenchError.check("raw statement failed: \(String(cString: PQerrorMessage(connection)))")
        }
        guard status == PGRES_TUPLES_OK, PQntuples(result) > 0, PQnfields(result) > 0 else { return nil }
        return String(cString: PQgetvalue(result, 0, 0))
    }
}

/// Rows in PostgreSQL's binary `COPY` format, written field by field (the raw side's encoder:
/// big-endian integers and doubles, UTF-8 text).
struct RawCopyRows {
    private(set) var bytes: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]

    /// Starts a row of `fields` fields.
    mutating func row(fields: Int) { put(UInt16(fields)) }
    /// A `bigint` field.
    mutating func field(_ value: Int64) { put(UInt32(8)); put(UInt64(bitPattern: value)) }
    /// A `double precision` field.
    mutating func field(_ value: Double) { put(UInt32(8)); put(value.bitPattern) }
    /// A `text` field.
    mutating func field(_ value: String) {
        put(UInt32(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }
    /// The bytes, with the end marker.
    func finished() -> [UInt8] { bytes + [0xFF, 0xFF] }

    private mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
