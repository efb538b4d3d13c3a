import GRDB

extension SQLiteStore {
    /// Translates an error from GRDB/SQLite into a ``StoreError`` naming the file.
    ///
    /// `SQLITE_BUSY`/`SQLITE_LOCKED` become ``StoreError/locked(path:)``, `SQLITE_NOTADB`
    /// ``StoreError/notADatabase(path:)``, a `UNIQUE` constraint failure
    /// ``StoreError/uniquenessViolation(entity:keys:)`` (naming `entity` when the caller knows
    /// which object was being written, else the table). Quarry's own errors pass through.
    static func storeError(_ error: any Error, path: String, entity: String? = nil) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StoreError.locked(path: path)
        case .SQLITE_NOTADB:
            return StoreError.notADatabase(path: path)
        case .SQLITE_CANTOPEN:
            return StoreError.cannotOpen(path: path, reason: error.message ?? "cannot open file")
        case .SQLITE_READONLY:
            return StoreError.readOnly(path: path)
        default:
            break
        }
        if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE, let message = error.message,
           let range = message.range(of: "UNIQUE constraint failed: ") {
            // "UNIQUE constraint failed: Sector.name, Sector.code"
            let columns = message[range.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let table = columns.first.flatMap { $0.split(separator: ".").first }.map(String.init) ?? "?"
            let keys = columns.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
            return StoreError.uniquenessViolation(entity: entity ?? table, keys: keys)
        }
        return StoreError.sqlite(path: path, code: error.extendedResultCode.rawValue, message: error.message ?? "\(error)")
    }
}
