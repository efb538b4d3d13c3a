import GRDB

/// An SQLite connection answers a migration step's checks directly.
extension Database: MigrationDataReader {
    func count(_ sql: String) throws -> Int { try Int.fetchOne(self, sql: sql) ?? 0 }

    func rows(_ sql: String) throws -> [[String]] {
        try Row.fetchAll(self, sql: sql).map { row in row.databaseValues.map { $0.description } }
    }

    func literal(_ value: Value) -> String { value.sqlLiteral }
}
