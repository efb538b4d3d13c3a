import Foundation
import GRDB
import GRDBSQLite

/// A thin wrapper over one prepared `sqlite3_stmt` for the hot paths (save, snapshot reads):
/// binds and reads ``Value``s with the C API directly, with no argument arrays or dictionaries.
///
/// The statement belongs to a GRDB `Database` connection (usually from its statement cache)
/// and is only used inside one `read`/`write` block, on that connection's queue.
struct SQLiteRawStatement {
    let handle: OpaquePointer
    /// Keeps the GRDB statement (and so the `sqlite3_stmt`) alive as long as the wrapper.
    private let owner: Statement

    init(_ statement: Statement) {
        owner = statement
        handle = statement.sqliteStatement
    }

    /// SQLite's `SQLITE_TRANSIENT`: copy the bound bytes before returning.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    @inline(__always) func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }
    @inline(__always) func bindNull(at index: Int32) { sqlite3_bind_null(handle, index) }

    @inline(__always) func bind(_ text: String, at index: Int32) {
        var text = text
        text.withUTF8 { buffer in
            _ = sqlite3_bind_text(handle, index, buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                  Int32(buffer.count), Self.transient)
        }
    }

    /// Binds `value` in its storage form (see ``SQLiteStore`` for the mapping).
    func bind(_ value: Value, at index: Int32) {
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let v): sqlite3_bind_int64(handle, index, v)
        case .double(let d): sqlite3_bind_double(handle, index, d)
        case .bool(let b): sqlite3_bind_int64(handle, index, b ? 1 : 0)
        case .string(let s): bind(s, at: index)
        case .date(let d): sqlite3_bind_double(handle, index, d.timeIntervalSinceReferenceDate)
        case .decimal(let d): bind(d.description, at: index)
        case .uuid(let u): bind(u.uuidString, at: index)
        case .uri(let u): bind(u.absoluteString, at: index)
        case .json(let j): bind(j.jsonText, at: index)
        case .data(let data):
            data.withUnsafeBytes { buffer in
                // A zero-length blob needs a non-nil pointer, or SQLite stores NULL.
                _ = sqlite3_bind_blob(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), Self.transient)
            }
        }
    }

    /// Runs the statement to completion (for `INSERT`/`UPDATE`/`DELETE`) and resets it.
    /// - Throws: GRDB's `DatabaseError` with SQLite's extended result code.
    func execute() throws {
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            let error = currentError(code)
            sqlite3_reset(handle)
            throw error
        }
        sqlite3_reset(handle)
    }

    /// Steps once: `true` when a row is available, `false` when done.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let error = currentError(code)
        sqlite3_reset(handle)
        throw error
    }

    /// Resets the statement and clears its bindings so it can be reused.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    private func currentError(_ code: Int32) -> DatabaseError {
        let db = sqlite3_db_handle(handle)
        let extended = sqlite3_extended_errcode(db)
        let message = String(cString: sqlite3_errmsg(db))
        let sql = sqlite3_sql(handle).map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: extended != 0 ? extended : code), message: message, sql: sql)
    }

    @inline(__always) func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    @inline(__always) func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as text (`nil` for NULL).
    func text(at column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        // Use the byte count, not the NUL terminator: strings may contain NUL.
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }

    /// The name of result column `column`, as the statement names it (for errors only: not
    /// read on the hot path).
    func columnName(at column: Int32) -> String {
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "#\(column)"
    }

    /// Reads column `column` as JSON text (a transformable attribute's stored text: stores
    /// written before transformers, values no transformer could take).
    /// - Throws: ``ColumnDecodingError`` naming the column when the text is not JSON (never
    ///   read as `NULL`).
    func jsonValue(at column: Int32) throws(ColumnDecodingError) -> Value {
        if sqlite3_column_type(handle, column) == SQLITE_NULL { return .null }
        let text = text(at: column) ?? "null"
        do {
            return .json(try JSONValue(jsonText: text))
        } catch {
            throw ColumnDecodingError(column: columnName(at: column), expected: "JSON", reason: "'\(text.prefix(40))' is not JSON")
        }
    }

    /// Reads column `column` as a value of an attribute of `type`, which cannot fail: a
    /// transformable attribute's column reads here as SQLite stored it (read it with
    /// ``value(at:of:)``, which decodes it and can fail).
    func scalarValue(at column: Int32, type: AttributeType) -> Value {
        let storage = sqlite3_column_type(handle, column)
        if storage == SQLITE_NULL { return .null }
        switch type {
        case .integer16, .integer32, .integer64: return .integer(sqlite3_column_int64(handle, column))
        case .double, .float: return .double(sqlite3_column_double(handle, column))
        case .boolean: return .bool(sqlite3_column_int64(handle, column) != 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: sqlite3_column_double(handle, column)))
        case .string: return .string(text(at: column) ?? "")
        case .decimal:
            let t = text(at: column) ?? ""
            return ScaledDecimal(string: t).map(Value.decimal) ?? .null
        case .uuid: return (text(at: column).flatMap(UUID.init(uuidString:))).map(Value.uuid) ?? .null
        case .uri: return (text(at: column).flatMap { URL(string: $0) }).map(Value.uri) ?? .null
        case .binary:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let p = sqlite3_column_blob(handle, column) else { return .data(Data()) }
            return .data(Data(bytes: p, count: count))
        case .undefined, .transformable:
            // Undefined attributes are transient and have no column; should one ever be read,
            // the value comes back as SQLite stored it (as does a transformable one read here).
            switch storage {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
            case SQLITE_FLOAT: return .double(sqlite3_column_double(handle, column))
            case SQLITE_TEXT: return .string(text(at: column) ?? "")
            default: return scalarValue(at: column, type: .binary)
            }
        }
    }
}
