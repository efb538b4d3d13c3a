import Foundation
import GRDB

/// Writes SQLite files laid out exactly as Apple's Core Data writes its stores, for tests of
/// Quarry's Core Data reader: `Z_PRIMARYKEY`, `Z_METADATA` (a binary property list),
/// `Z_MODELCACHE` (raw DEFLATE around a keyed archive of the model), one `Z<ROOT>` table per
/// entity hierarchy, join tables for many-to-many relationships, `Z_FOK_` order columns, and
/// optionally the persistent-history tables (`ATRANSACTION`, `ACHANGE`,
/// `ATRANSACTIONSTRING`). ``CoreDataFixtureLayout`` lists the naming conventions followed.
///
/// ```swift
/// let url = folder.appendingPathComponent("Library.sqlite")
/// try CoreDataFixture.library.write(to: url)                 // checkpointed, WAL-mode header
/// try CoreDataFixture.library.write(to: other, walOnly: true) // every row only in other-wal
/// ```
///
/// Not thread-safe to share while mutating; a value type, so each test builds its own.
public struct CoreDataFixture: Sendable {
    /// The model: every entity, each with its own properties.
    public var entities: [Entity]
    /// The rows, in `Z_PK` order within each table.
    public var objects: [Object]
    /// Persistent-history transactions, oldest first; none means no history tables.
    public var history: [HistoryTransaction]
    /// What `Z_MODELCACHE` holds.
    public var modelCache: ModelCache
    /// `Z_METADATA.Z_UUID` and the metadata's `NSStoreUUID`.
    public var storeUUID: UUID

    /// A store of `entities` holding `objects` (in `Z_PK` order per table), with `history`
    /// (no history tables when empty) and the model cache `modelCache`.
    public init(entities: [Entity], objects: [Object] = [], history: [HistoryTransaction] = [],
                modelCache: ModelCache = .archived,
                storeUUID: UUID = UUID(uuidString: "0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F0")!) {
        self.entities = entities
        self.objects = objects
        self.history = history
        self.modelCache = modelCache
        self.storeUUID = storeUUID
    }

    /// Writes the store to `url`, which must not exist.
    ///
    /// With `walOnly` false the store is committed, checkpointed and closed: one file whose
    /// header says WAL mode (as every modern Core Data store's does) and no `-wal` left. With
    /// `walOnly` true the store is built in a temporary folder with automatic checkpoints off,
    /// and `url` and `url-wal` are copied while the connection is still open, so every table and
    /// row exists only in the `-wal` (no `-shm` is copied): what a crashed or still-running app
    /// leaves behind.
    /// - Throws: ``CoreDataFixtureError`` for a fixture that does not fit its model or an
    ///   existing destination; GRDB's and Foundation's errors for I/O.
    public func write(to url: URL, walOnly: Bool = false) throws {
        for path in [url.path, url.path + "-wal", url.path + "-shm"] where FileManager.default.fileExists(atPath: path) {
            throw CoreDataFixtureError.destinationExists(path)
        }
        let statements = try sqlStatements()
        guard walOnly else {
            let queue = try DatabaseQueue(path: url.path)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode=WAL")
                try db.inTransaction {
                    for s in statements { try db.execute(sql: s.sql, arguments: StatementArguments(s.arguments)) }
                    return .commit
                }
            }
            try queue.close()
            return
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-coredata-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let scratch = work.appendingPathComponent(url.lastPathComponent)
        let queue = try DatabaseQueue(path: scratch.path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode=WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint=0")
            try db.inTransaction {
                for s in statements { try db.execute(sql: s.sql, arguments: StatementArguments(s.arguments)) }
                return .commit
            }
            // Copied inside the connection's lifetime: closing it would checkpoint the WAL.
            try FileManager.default.copyItem(atPath: scratch.path, toPath: url.path)
            try FileManager.default.copyItem(atPath: scratch.path + "-wal", toPath: url.path + "-wal")
        }
        try queue.close()
    }

    /// One statement and its arguments.
    struct Statement {
        var sql: String
        var arguments: [DatabaseValue] = []
    }

    /// Every statement that builds the store, schema first.
    func sqlStatements() throws(CoreDataFixtureError) -> [Statement] {
        let layout = try CoreDataFixtureLayout(entities)
        let rows = try rowStatements(layout)
        var statements = layout.schemaSQL.map { Statement(sql: $0) }
        if !history.isEmpty { statements += Self.historySchemaSQL.map { Statement(sql: $0) } }
        statements += Self.metadataSchemaSQL(modelCache: modelCache).map { Statement(sql: $0) }
        statements += rows.statements
        statements += try historyStatements(layout, primaryKeys: rows.primaryKeys)
        statements += try metadataStatements(layout, maxima: rows.maxima)
        return statements
    }
}
