import Foundation
import GRDB

/// Appends one save's persistent-history transaction, inside the save's `IMMEDIATE`
/// transaction on the writer connection (so it commits, or rolls back, with the rows).
///
/// Per row it binds a cached prepared statement with integers and the entity's name; no SQL is
/// built per row, and a run of inserted objects with consecutive keys is one row (see
/// ``SQLiteHistorySchema``, ``SaveChanges/forEachHistoryRow(model:tombstones:_:)``). Not shared: it
/// lives for one save.
struct SQLiteHistoryWriter {
    let model: ManagedObjectModel
    let origin: String

    /// Records `changes` (what the save committed) as one transaction; returns its token.
    ///
    /// - Parameters:
    ///   - tombstones: Per deleted object, its preserved values as tombstone JSON.
    ///   - author: The saving context's name (`nil`: ``HistoryAuthor/processLabel``).
    func record(_ changes: SaveChanges, tombstones: [ObjectID: String], author: String?, db: Database) throws -> HistoryToken {
        let transaction = SQLiteRawStatement(try db.cachedStatement(sql: SQLiteHistorySchema.insertTransaction))
        transaction.bind(.double(Date().timeIntervalSinceReferenceDate), at: 1)
        transaction.bind(author ?? HistoryAuthor.processLabel, at: 2)
        transaction.bind(origin, at: 3)
        transaction.bind(Int64(ProcessInfo.processInfo.processIdentifier), at: 4)
        try transaction.execute()
        let token = db.lastInsertedRowID

        let change = SQLiteRawStatement(try db.cachedStatement(sql: SQLiteHistorySchema.insertChange))
        change.bind(token, at: 1)
        var sequence: Int64 = 0
        try changes.forEachHistoryRow(model: model, tombstones: tombstones) { row in
            sequence += 1
            change.bind(sequence, at: 2)
            change.bind(row.entity, at: 3)
            change.bind(row.primaryKey, at: 4)
            change.bind(row.count, at: 5)
            change.bind(row.typeCode, at: 6)
            if let keys = row.keys { change.bind(keys, at: 7) } else { change.bindNull(at: 7) }
            if let tombstone = row.tombstone { change.bind(tombstone, at: 8) } else { change.bindNull(at: 8) }
            try change.execute()
        }
        return HistoryToken(token)
    }
}
