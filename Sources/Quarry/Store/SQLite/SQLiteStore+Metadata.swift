import Foundation
import GRDB

extension SQLiteStore {
    /// What a store's `Z_METADATA` table records (``StoreMetadata``, the same for every back end).
    public typealias Metadata = StoreMetadata

    /// Reads the metadata of the store at `url` without opening it for writing (for
    /// `quarry stats` and tools).
    ///
    /// ```swift
    /// let metadata = try SQLiteStore.readMetadata(url: url)
    /// print(metadata.identifier, metadata.model.entities.count)
    /// ```
    /// - Throws: ``StoreError/notADatabase(path:)``, ``StoreError/notAQuarryStore(path:)``,
    ///   ``StoreError/corruptMetadata(path:reason:)`` or ``StoreError/cannotOpen(path:reason:)``.
    public static func readMetadata(url: URL) throws -> Metadata {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.cannotOpen(path: path, reason: "no such file") }
        // The peek writes nothing and creates no -wal/-shm beside a store that has none.
        guard let metadata = try peek(path: path).metadata else { throw StoreError.notAQuarryStore(path: path) }
        return metadata
    }

    /// The model recorded in the store at `url`, read by a look that writes nothing and opens
    /// no store (what `SQLiteStore(url:model: nil, options: .init(readOnly: true)).model` is,
    /// without opening the store's connections).
    /// - Throws: as ``init(url:model:options:)`` opening it read-only: ``StoreError/cannotOpen(path:reason:)``,
    ///   ``StoreError/notADatabase(path:)``, ``StoreError/notAQuarryStore(path:)``,
    ///   ``StoreError/missingMetadata(path:)``, ``StoreError/corruptMetadata(path:reason:)``.
    public static func recordedModel(url: URL, busyTimeout: TimeInterval = 5) throws -> ManagedObjectModel {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.cannotOpen(path: path, reason: "no such file (a read-only store is never created)")
        }
        let found = try peek(path: path, busyTimeout: busyTimeout)
        if let metadata = found.metadata { return metadata.model }
        throw found.hasOtherTables ? StoreError.notAQuarryStore(path: path) : StoreError.missingMetadata(path: path)
    }

    /// Copies every commit in the write-ahead log into the file and empties the log
    /// (`wal_checkpoint(TRUNCATE)`), waiting up to the busy timeout for readers to finish: for
    /// a command that is done writing a store another program opens next, which then reads
    /// the file alone instead of replaying a log. Returns whether the log was emptied: not when
    /// another connection still reads an older state after the busy timeout (the log then stays
    /// as it is, every commit in it).
    @discardableResult
    public func checkpointTruncatingLog() throws -> Bool {
        guard !options.readOnly else { return false }
        do {
            return try pool.writeWithoutTransaction { db in
                let result = try db.checkpoint(.truncate)
                return result.walFrameCount == 0
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            return false
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// The size in bytes of the store at `url`, its write-ahead log included (0 when missing).
    public static func fileSize(url: URL) -> Int64 {
        [url.path, url.path + "-wal"].reduce(0) { total, path in
            let size = FileKind(path: path).size ?? 0
            return total + size
        }
    }

    /// The size in bytes of this store's file, its write-ahead log included.
    public var fileSize: Int64 { Self.fileSize(url: fileURL) }

    /// The metadata in `db`, or `nil` when the file has no `Z_METADATA` table.
    static func readMetadata(db: Database, path: String) throws -> Metadata? {
        // Asked of sqlite_master directly: GRDB's tableExists first loads the whole schema
        // (about 5 % of a one-column migration).
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'Z_METADATA')") == true else {
            return nil
        }
        var values: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM Z_METADATA") {
            if let key: String = row["key"], let value: String = row["value"] { values[key] = value }
        }
        return try StoreMetadata(values: values, path: path)
    }

    /// Writes the metadata rows of a new store.
    static func writeMetadata(db: Database, identifier: UUID, model: ManagedObjectModel) throws {
        try db.execute(sql: "INSERT INTO Z_METADATA (key, value) VALUES (?, ?)", arguments: [MetadataKey.identifier, identifier.uuidString])
        try LogOwnershipMark.mark(db, identifier: identifier)
        try replaceModel(db: db, with: model)
    }

    /// Records `model` as the store's model (its JSON, version hashes and the Quarry version),
    /// replacing the rows of the model it had: at creation and after a migration.
    static func replaceModel(db: Database, with model: ManagedObjectModel) throws {
        let prefix = MetadataKey.entityHashPrefix
        let rows = StoreMetadata.rows(recording: model)
        // Entity hashes of entities the model no longer has go; a row already holding its
        // value is not written again (a migration rewrites only what changed).
        let wanted = Set(rows.map(\.key))
        let hashKeys = try String.fetchAll(db, sql: "SELECT key FROM Z_METADATA WHERE substr(key, 1, ?) = ?", arguments: [prefix.count, prefix])
        // Each statement prepared once for all its rows.
        let delete = try db.cachedStatement(sql: "DELETE FROM Z_METADATA WHERE key = ?")
        for key in hashKeys where !wanted.contains(key) {
            try delete.execute(arguments: [key])
        }
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO Z_METADATA (key, value) VALUES (?, ?)
            ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value
            """)
        for (key, value) in rows {
            try upsert.execute(arguments: [key, value])
        }
    }
}
