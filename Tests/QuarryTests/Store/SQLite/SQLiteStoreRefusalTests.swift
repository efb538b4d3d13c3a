import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// A store Quarry refuses is never modified: the file, its `-wal` and `-shm` keep their bytes
/// (sha256) and no file appears beside them. Read-only opens create no `-wal`/`-shm` either.
@Suite("SQLite store: refused files are never written")
struct SQLiteStoreRefusalTests {
    let dir = TemporaryDirectory()

    func fingerprint() throws -> [String: String] { try dir.fingerprint() }

    /// A Quarry store, closed and checkpointed (no `-wal`/`-shm` left), after `change` ran on it.
    func closedStore(_ name: String = "store.sqlite", change: ((Database) throws -> Void)? = nil) throws -> URL {
        let url = dir.file(name)
        do {
            let store = try SQLiteStore(url: url, model: TestModels.tickers())
            let make = ChangeMaker(model: store.model)
            _ = try store.insert([make.insert("Sector", ["name": .string("Tech")])])
        }
        if let change { try DatabaseQueue(path: url.path).write(change) }
        try #require(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        try #require(!FileManager.default.fileExists(atPath: url.path + "-shm"))
        return url
    }

    /// Opening `url` (with the tickers model and without one) throws, and changes no byte in the directory.
    func expectRefusedUntouched(_ url: URL, _ check: (any Error) -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try fingerprint()
        for model in [TestModels.tickers(), nil] {
            do {
                _ = try SQLiteStore(url: url, model: model)
                Issue.record("opened a store Quarry should refuse", sourceLocation: sourceLocation)
            } catch {
                #expect(check(error), "unexpected error \(error)", sourceLocation: sourceLocation)
            }
        }
        #expect(try fingerprint() == before, sourceLocation: sourceLocation)
    }

    @Test("an SQLite database of another program is refused with a model and without; nothing is written")
    func foreignDatabase() throws {
        let url = dir.file("other.sqlite")
        do {
            let queue = try DatabaseQueue(path: url.path)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "CREATE TABLE notes (text)")
                try db.execute(sql: "INSERT INTO notes VALUES ('keep me')")
            }
        }
        try expectRefusedUntouched(url) { $0 as? StoreError == .notAQuarryStore(path: url.path) }
        #expect(StoreError.notAQuarryStore(path: url.path).description.contains("no model was given") == false)
        #expect(StoreError.missingMetadata(path: url.path).description != StoreError.notAQuarryStore(path: url.path).description)
    }

    @Test("a file that is not SQLite is refused; nothing is written")
    func notSQLite() throws {
        let url = dir.file("notes.txt")
        try Data("plain text, not a database\n".utf8).write(to: url)
        try expectRefusedUntouched(url) { $0 as? StoreError == .notADatabase(path: url.path) }
    }

    @Test("a Quarry store without Z_METADATA is refused; nothing is written")
    func missingMetadataTable() throws {
        let url = try closedStore { try $0.execute(sql: "DROP TABLE Z_METADATA") }
        try expectRefusedUntouched(url) { $0 as? StoreError == .notAQuarryStore(path: url.path) }
    }

    @Test("a store made with another model is refused; nothing is written")
    func modelMismatch() throws {
        let url = try closedStore()
        let before = try fingerprint()
        var definition = TestModels.tickerDefinition()
        definition.entities.append(EntityDefinition(name: "Extra"))
        #expect(throws: StoreError.modelMismatch(path: url.path, entities: ["Extra"])) { try SQLiteStore(url: url, model: ManagedObjectModel(definition)) }
        #expect(try fingerprint() == before)
    }

    @Test("a store with corrupt metadata is refused; nothing is written")
    func corruptMetadata() throws {
        let url = try closedStore { try $0.execute(sql: "UPDATE Z_METADATA SET value = 'not json' WHERE key = 'model'") }
        try expectRefusedUntouched(url) { if case .corruptMetadata? = $0 as? StoreError { return true } else { return false } }
        #expect(throws: StoreError.self) { try SQLiteStore.readMetadata(url: url) }
    }

    /// Another database's write-ahead log, with uncheckpointed pages, copied beside `url`.
    func placeForeignLog(beside url: URL, withSHM: Bool) throws {
        let other = dir.file("scratch-other.sqlite")
        let queue = try WALWriter.keepingRowsInLog(at: other, inLog: ["CREATE TABLE foreign_rows (x)", "INSERT INTO foreign_rows VALUES (randomblob(5000))"])
        try FileManager.default.copyItem(atPath: other.path + "-wal", toPath: url.path + "-wal")
        if withSHM { try FileManager.default.copyItem(atPath: other.path + "-shm", toPath: url.path + "-shm") }
        try queue.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: other.path + suffix) }
    }

    @Test("a foreign -wal beside a store (with or without -shm) is never checkpointed into it", arguments: [false, true])
    func foreignLog(withSHM: Bool) throws {
        let url = try closedStore()
        try placeForeignLog(beside: url, withSHM: withSHM)
        // A log of pages that carry no Quarry store's tag is refused before it is read.
        let isRefusal = { (error: any Error) -> Bool in
            if case .mismatchedLog(url.path, _)? = error as? StoreError { return true }
            return error as? StoreError == .foreignLog(path: url.path)
        }
        try expectRefusedUntouched(url, isRefusal)
        #expect(performing: { try SQLiteStore.readMetadata(url: url) }, throws: isRefusal)
        #expect(StoreError.foreignLog(path: url.path).description.contains("\(url.path)-wal beside it belongs to another database"))
        #expect(try fingerprint().count == (withSHM ? 3 : 2))
    }

    @Test("a store file restored from an older copy beside its own newer -wal is refused, saying so; nothing is written")
    func restoredFileBesideNewerLog() throws {
        let url = dir.file("store.sqlite")
        let backup = dir.url.appendingPathComponent("backup").appendingPathComponent("store.sqlite")
        try FileManager.default.createDirectory(at: backup.deletingLastPathComponent(), withIntermediateDirectories: true)
        let log = backup.deletingLastPathComponent().appendingPathComponent("newer-wal")
        do {
            let store = try SQLiteStore(url: url, model: TestModels.tickers())
            let make = ChangeMaker(model: store.model)
            func save(_ name: String) throws { _ = try store.insert([make.insert("Sector", ["name": .string(name)])]) }
            try save("one"); try save("two")
            #expect(try store.checkpointTruncatingLog())
            try FileManager.default.copyItem(at: url, to: backup)
            try save("three"); try save("four")
            // The log starts again: its first transaction no longer follows the copy.
            #expect(try store.checkpointTruncatingLog())
            try save("five"); try save("six")
            try FileManager.default.copyItem(atPath: url.path + "-wal", toPath: log.path)
        }
        try FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: backup, to: url)
        try FileManager.default.copyItem(atPath: log.path, toPath: url.path + "-wal")
        try FileManager.default.removeItem(at: backup.deletingLastPathComponent())
        try expectRefusedUntouched(url) { error in
            guard case .mismatchedLog(let path, let reason)? = error as? StoreError else { return false }
            return path == url.path && reason.contains("the file is at save 2") && reason.contains("the file was replaced")
        }
    }

    @Test("another Quarry store's -wal beside a store is refused, naming the other store's tag; nothing is written")
    func anotherQuarryStoresLog() throws {
        let url = try closedStore()
        let other = dir.url.appendingPathComponent("other").appendingPathComponent("store.sqlite")
        try FileManager.default.createDirectory(at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            // The same model and the same saves: only the stores' identities differ.
            let store = try SQLiteStore(url: other, model: TestModels.tickers())
            let make = ChangeMaker(model: store.model)
            _ = try store.insert([make.insert("Sector", ["name": .string("Tech")])])
            _ = try store.insert([make.insert("Sector", ["name": .string("Energy")])])
            try FileManager.default.copyItem(atPath: other.path + "-wal", toPath: url.path + "-wal")
        }
        try FileManager.default.removeItem(at: other.deletingLastPathComponent())
        try expectRefusedUntouched(url) { error in
            guard case .mismatchedLog(let path, let reason)? = error as? StoreError else { return false }
            return path == url.path && reason.contains("it was written for the store tagged")
        }
        #expect(StoreError.mismatchedLog(path: url.path, reason: "x").description.contains("\(url.path)-wal beside it does not belong to it (x)"))
    }

    @Test("a FIFO, and a FIFO in place of the -wal, are refused without being opened")
    func fifo() throws {
        let url = dir.file("pipe.sqlite")
        try #require(mkfifo(url.path, 0o644) == 0)
        #expect(throws: StoreError.notAFile(path: url.path, kind: "a FIFO (named pipe)")) { try SQLiteStore(url: url, model: TestModels.tickers()) }
        #expect(throws: StoreError.notAFile(path: url.path, kind: "a FIFO (named pipe)")) { try SQLiteStore.peek(path: url.path) }
        let store = try closedStore()
        try #require(mkfifo(store.path + "-wal", 0o644) == 0)
        #expect(throws: StoreError.notAFile(path: store.path + "-wal", kind: "a FIFO (named pipe)")) { try SQLiteStore(url: store, model: nil) }
    }

    @Test("an SQLite file with no tables, opened without a model, says no model was given; nothing is written")
    func emptyDatabaseWithoutModel() throws {
        let url = dir.file("empty.sqlite")
        try DatabaseQueue(path: url.path).close()
        let before = try fingerprint()
        #expect(throws: StoreError.missingMetadata(path: url.path)) { try SQLiteStore(url: url, model: nil) }
        #expect(StoreError.missingMetadata(path: url.path).description.contains("no model was given"))
        #expect(try fingerprint() == before)
    }

    @Test("a directory given as the store says so")
    func directory() throws {
        let url = dir.file("folder")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let error = #expect(throws: StoreError.self) { try SQLiteStore(url: url, model: TestModels.tickers()) }
        #expect(error?.description.contains("is a directory") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.path).isEmpty)
    }

    @Test("a store opened for writing, read and closed, and a whole stack likewise, leave every byte as it was")
    func writableOpenThatWritesNothingChangesNothing() throws {
        let url = try closedStore()
        let before = try fingerprint()
        do {
            let store = try SQLiteStore(url: url, model: nil)
            #expect(try store.count(for: StoreQuery(entity: store.model.entity(named: "Sector")!)) == 1)
        }
        #expect(try fingerprint() == before)
        do {
            let stack = try PersistentStack(model: TestModels.tickers(), storeURL: url)
            #expect(stack.watchesRemoteChanges)
            #expect(try stack.mainContext.performAndWait { try stack.mainContext.count(for: FetchRequest(entityName: "Sector")) } == 1)
        }
        #expect(try fingerprint() == before)
    }

    @Test("reading metadata and read-only opens create no -wal or -shm beside a checkpointed store")
    func readOnlyCreatesNoLogFiles() throws {
        let url = try closedStore()
        let before = try fingerprint()
        let metadata = try SQLiteStore.readMetadata(url: url)
        #expect(metadata.modelVersionHash == TestModels.tickers().versionHash)
        #expect(try fingerprint() == before)
        do {
            let store = try SQLiteStore(url: url, model: nil, options: .init(readOnly: true))
            #expect(try store.count(for: StoreQuery(entity: store.model.entity(named: "Sector")!)) == 1)
        }
        #expect(try fingerprint() == before)
    }

    @Test("a live store's uncheckpointed log is read, not refused")
    func liveLogIsRead() throws {
        let url = dir.file("live.sqlite")
        let writer = try SQLiteStore(url: url, model: TestModels.tickers())
        let make = ChangeMaker(model: writer.model)
        _ = try writer.insert([make.insert("Sector", ["name": .string("Tech")])])
        #expect(try SQLiteStore.readMetadata(url: url).identifier == writer.identifier)
        let second = try SQLiteStore(url: url, model: TestModels.tickers())
        #expect(try second.count(for: StoreQuery(entity: second.model.entity(named: "Sector")!)) == 1)
    }

    /// GRDB's opening write and the schema commit come before the commit that tags a new
    /// store, so a new store's log starts with untagged frames of page 1: they are its own (the
    /// benchmark of an export, opening such a store while its creator was still open, was
    /// refused).
    @Test("a new store's log, whose first commits come before the one that tags it, is its own: a copy of the live store opens")
    func newStoresLogIsItsOwn() throws {
        let url = dir.file("new.sqlite")
        let writer = try SQLiteStore(url: url, model: TestModels.tickers())
        _ = try writer.insert([ChangeMaker(model: writer.model).insert("Sector", ["name": .string("Tech")])])
        let frames = try #require(try WriteAheadLog.read(path: url.path + "-wal")).firstPageFrames
        // What this test is about: an untagged page 1 before the tagged ones.
        #expect(frames.first?.applicationID == 0)
        #expect(frames.last?.applicationID != 0)
        // A checkpoint copies the tagged page 1 into the file and leaves the log as it is.
        try DatabaseQueue(path: url.path).writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
        #expect(SQLiteStore.fileHeaderFields(path: url.path)?.applicationID == frames.last?.applicationID)
        let copy = dir.file("copy.sqlite")
        try FileManager.default.copyItem(at: url, to: copy)
        try FileManager.default.copyItem(atPath: url.path + "-wal", toPath: copy.path + "-wal")
        let reopened = try SQLiteStore(url: copy, model: TestModels.tickers())
        #expect(try reopened.count(for: StoreQuery(entity: reopened.model.entity(named: "Sector")!)) == 1)
    }
}
