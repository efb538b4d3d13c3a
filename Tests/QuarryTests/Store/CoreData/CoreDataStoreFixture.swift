import Foundation
import GRDB
@testable import Quarry
import QuarryTestSupport

/// Helpers for the Core Data store reader's tests: copies of corpus stores in a temporary
/// folder, read-only connections, and hand-made `SELECT`s over a ``ForeignSource`` (so the
/// expressions are checked against real rows before any view is built from them).
enum CoreDataStoreFixture {
    /// A fresh folder inside `dir` (removed with it).
    static func folder(in dir: TemporaryDirectory) throws -> URL {
        let folder = dir.file(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A copy of corpus store `relative` (with its `-wal`/`-shm` when present) in a fresh
    /// folder inside `dir`, or `nil` when the corpus is absent.
    static func copy(_ relative: String, into dir: TemporaryDirectory) throws -> URL? {
        guard let stores = CoreDataStoreModelCacheTests.storesFolder else { return nil }
        let original = stores.appendingPathComponent(relative)
        let copy = try folder(in: dir).appendingPathComponent(original.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: original.path + suffix) {
            try FileManager.default.copyItem(atPath: original.path + suffix, toPath: copy.path + suffix)
        }
        return copy
    }

    /// Reads the store at `url` through a read-only connection.
    static func read(_ url: URL, candidates: [ModelVersionHistory.Version] = []) throws -> CoreDataStoreDescription {
        try withReadOnly(url) { db in try CoreDataStoreReader.read(db, path: url.path, candidates: candidates) }
    }

    /// Runs `body` on a read-only connection to `url`.
    static func withReadOnly<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    /// Runs `body` on a writable connection to `url` (for building damaged copies and
    /// hand-made stores; never on a corpus file).
    static func withWritable(_ url: URL, _ body: (Database) throws -> Void) throws {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write(body)
    }

    /// The `SELECT` over `source` listing the objects of entity `name` (and its sub-entities):
    /// the primary key, the Quarry entity index, then one column per key.
    static func select(_ d: CoreDataStoreDescription, entity name: String, keys: [StoreLayout.ColumnKey] = []) -> String {
        let e = d.model.entity(named: name)!
        guard let t = d.source.tables[e.rootIndex] else { return "SELECT 1 WHERE 0" }
        let entity = t.entity ?? "\(e.rootIndex)"
        let columns = keys.map { d.source.columns[$0] ?? "NULL" }
        var conditions = ["(\(entity)) IN (\(e.selfAndDescendantIndices.map(String.init).joined(separator: ", ")))"]
        if let filter = t.filter { conditions.append(filter) }
        return "SELECT \(([t.primaryKey, entity] + columns).joined(separator: ", ")) FROM \(t.from) WHERE \(conditions.joined(separator: " AND ")) ORDER BY 1"
    }

    /// The pairs of many-to-many `relationship` declared by `entity`: (source key, destination key, order).
    static func pairs(_ db: Database, _ d: CoreDataStoreDescription, entity: String, relationship: String) throws -> [[Int64?]] {
        let e = d.model.entity(named: entity)!
        guard let j = d.source.joinTables[ForeignSource.JoinKey(entity: e.index, relationship: relationship)] else { return [] }
        let sql = "SELECT \(j.source), \(j.destination), \(j.order ?? "NULL"), \(j.destinationEntity) FROM \(j.from) ORDER BY 1, 3, 2"
        return try Row.fetchAll(db, sql: sql).map { row in (0..<4).map { row[$0] as Int64? } }
    }
}
