import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// A database Quarry did not make is never written: opened, read and closed, every file beside
/// it keeps its bytes (sha256), none appears, and rows that live only in its `-wal` are read.
@Suite("Foreign SQLite: nothing is ever written")
struct ForeignDatabaseSafetyTests {
    let dir = TemporaryDirectory()

    func fingerprint() throws -> [String: String] { try dir.fingerprint() }

    /// Opens `url` as a foreign database through a stack, reads every entity, and closes it.
    func readEverything(_ url: URL) throws -> [String: Int] {
        let database = try ForeignDatabase.open(path: url.path)
        var options = PersistentStack.Options()
        options.foreignDatabase = database
        options.readOnly = true
        var counts: [String: Int] = [:]
        do {
            let stack = try PersistentStack(model: database.model, options: options)
            let context = stack.temporaryContext()
            try context.performAndWait {
                for entity in database.model.entities {
                    let objects = try context.fetch(FetchRequest(entityName: entity.name))
                    for object in objects { _ = try object.value(forKey: entity.attributes[0].name) }
                    counts[entity.name] = objects.count
                }
            }
        }
        return counts
    }

    /// A WAL database at `url` with a table `notes` in the file and the rows `insert` adds
    /// only in its log, while the returned writer stays open.
    func writerKeepingRowsInLog(_ url: URL, insert: String) throws -> DatabaseQueue {
        try WALWriter.keepingRowsInLog(at: url, checkpointed: ["CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)"], inLog: [insert])
    }

    @Test("a rollback-journal database: no -wal or -shm appears, no byte changes")
    func rollbackJournal() throws {
        let url = try PlainSQLiteFixture.write(to: dir.file("plain.sqlite"))
        let before = try fingerprint()
        #expect(try readEverything(url)["books"] == 3)
        #expect(try fingerprint() == before)
    }

    @Test("a WAL database whose rows are all in its -wal shows them; the file, -wal and -shm keep their bytes")
    func walOnlyRows() throws {
        let url = dir.file("live.sqlite")
        let writer = try writerKeepingRowsInLog(url, insert: "INSERT INTO notes (text) VALUES ('only in the log'), ('me too')")
        // The main file alone has the table but no rows.
        let alone = try DatabaseQueue(path: SQLiteStore.fileURI(url.path) + "?immutable=1", configuration: {
            var c = Configuration(); c.readonly = true; return c
        }())
        #expect(try alone.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM notes") } == 0)
        try alone.close()
        let before = try fingerprint()
        #expect(before.keys.contains("live.sqlite-wal") && before.keys.contains("live.sqlite-shm"))
        #expect(try readEverything(url)["notes"] == 2)
        #expect(try fingerprint() == before)
        try writer.close()
    }

    @Test("a WAL database copied without its -shm: read from the log, and no -shm is made beside it")
    func walWithoutSHM() throws {
        let source = dir.file("source.sqlite")
        let writer = try writerKeepingRowsInLog(source, insert: "INSERT INTO notes (text) VALUES ('in the log')")
        let copyFolder = dir.file("copy")
        try FileManager.default.createDirectory(at: copyFolder, withIntermediateDirectories: true)
        let copy = copyFolder.appendingPathComponent("device.sqlite")
        try FileManager.default.copyItem(atPath: source.path, toPath: copy.path)
        try FileManager.default.copyItem(atPath: source.path + "-wal", toPath: copy.path + "-wal")
        try writer.close()
        let before = try FileManager.default.contentsOfDirectory(atPath: copyFolder.path).sorted()
        let hashes = try before.map { SHA256.hex(Array(try Data(contentsOf: copyFolder.appendingPathComponent($0)))) }
        #expect(try readEverything(copy)["notes"] == 1)
        let after = try FileManager.default.contentsOfDirectory(atPath: copyFolder.path).sorted()
        #expect(after == before)
        #expect(try after.map { SHA256.hex(Array(try Data(contentsOf: copyFolder.appendingPathComponent($0)))) } == hashes)
    }

    @Test("the private copy a -wal is read through is removed when the stores are released")
    func snapshotCopyRemoved() throws {
        let url = try PlainSQLiteFixture.write(to: dir.file("plain.sqlite"), walMode: true)
        let writer = try WALWriter.keepingRowsInLog(at: url, inLog: ["INSERT INTO tags VALUES ('new', 'red')"])
        var folder: URL?
        do {
            let database = try ForeignDatabase.open(path: url.path)
            folder = database.snapshot.copyFolder
            let store = try SQLiteStore(foreign: database)
            let tags = try #require(store.model.entity(named: "tags"))
            #expect(try store.count(for: StoreQuery(entity: tags)) == 3)
            #expect(FileManager.default.fileExists(atPath: try #require(folder).path))
        }
        #expect(!FileManager.default.fileExists(atPath: try #require(folder).path))
        try writer.close()
    }

    @Test("keys of WITHOUT ROWID tables and copies of views are built once, in a private file removed on release")
    func auxiliaryBuiltOnceAndRemoved() throws {
        let url = try PlainSQLiteFixture.write(to: dir.file("plain.sqlite"))
        let before = try fingerprint()
        var folder: URL?
        do {
            let database = try ForeignDatabase.open(path: url.path)
            let auxiliary = try #require(database.auxiliary)
            folder = auxiliary.folder
            #expect(!auxiliary.folder.path.hasPrefix(dir.url.path))
            let stores = try (0..<2).map { _ in try SQLiteStore(foreign: database) }
            for store in stores {
                let view = try #require(store.model.entity(named: "cheap_books"))
                #expect(try store.count(for: StoreQuery(entity: view)) == 2)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: try #require(folder).path))
        #expect(try fingerprint() == before)
    }

    @Test("a Quarry store is not foreign; a file that is not SQLite is refused by name")
    func detection() throws {
        let quarry = dir.file("q.sqlite")
        _ = try SQLiteStore(url: quarry, model: TestModels.tickers())
        #expect(try ForeignDatabase.isForeign(path: quarry.path) == false)
        let plain = try PlainSQLiteFixture.write(to: dir.file("plain.sqlite"))
        #expect(try ForeignDatabase.isForeign(path: plain.path))
        let text = dir.file("notes.txt")
        try Data("hello, not a database".utf8).write(to: text)
        #expect(throws: StoreError.notADatabase(path: text.path)) { _ = try ForeignDatabase.isForeign(path: text.path) }
    }
}
