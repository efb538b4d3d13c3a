import Foundation
@testable import Quarry
@testable import quarry
import QuarryTestSupport
import Testing

/// ``StoreLocation``: the one place the command line decides what a store argument names, by
/// asking the engine, and the path checks made before anything is opened (issue 36, item 7).
@Suite("StoreLocation decides once what a store argument names")
struct StoreLocationTests {
    let directory = TemporaryDirectory()

    /// A Quarry SQLite store of the ticker model, closed (no `-wal` or `-shm` left).
    func quarryStore(_ name: String = "store.sqlite") throws -> URL {
        let url = directory.file(name)
        try SQLiteStore(url: url, model: TestModels.tickers()).checkpointTruncatingLog()
        return url
    }

    /// Every file under the test's folder and its sha256 (a link by its target): what the
    /// decision must leave as it was.
    func fingerprint() throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: directory.url.path) {
            let path = directory.file(name).path
            let kind = FileKind(path: path)
            if kind.isSymbolicLink {
                result[name] = "link to " + (try FileManager.default.destinationOfSymbolicLink(atPath: path))
            } else if kind.kind == .regularFile {
                result[name] = SHA256.hex(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            } else {
                result[name] = kind.description
            }
        }
        return result
    }

    @Test("a Quarry SQLite store is an SQLite file")
    func quarrySQLiteStore() throws {
        let url = try quarryStore()
        #expect(try StoreLocation(url.path) == .sqliteFile(path: url.path))
    }

    @Test("a JSON store folder is a JSON folder")
    func jsonStoreFolder() throws {
        let url = directory.file("store.jsonstore")
        _ = try JSONStore(url: url, model: TestModels.tickers())
        #expect(try StoreLocation(url.path) == .jsonFolder(path: url.path))
    }

    @Test("a postgres:// or postgresql:// URL is a PostgreSQL store, looked at nowhere; it is shown without its password")
    func postgreSQLURL() throws {
        for url in ["postgres://user:secret@db.example/quarry?schema=s", "postgresql://user:secret@db.example/quarry"] {
            let location = try StoreLocation(url)
            #expect(location == .postgreSQL(url: url))
            #expect(location.argument == url)
            #expect(location.fileURL == nil)
            #expect(!location.shown.contains("secret"), "\(location.shown)")
            #expect(!StoreLocation.isAbsent(url))
            #expect(StoreLocation(newStoreAt: url) == location)
        }
    }

    @Test("an SQLite database Quarry did not make is a foreign database, which opens as an SQLite database")
    func foreignSQLiteDatabase() throws {
        let url = try PlainSQLiteFixture.write(to: directory.file("library.sqlite"))
        let location = try StoreLocation(url.path)
        #expect(location == .foreignDatabase(path: url.path))
        let opened = try #require(try StoreOpening.foreignDatabase(location))
        #expect(opened.kind == .sqlite)
    }

    @Test("an Apple Core Data store is a foreign database, which opens as a Core Data store")
    func coreDataStore() throws {
        let url = directory.file("Library.sqlite")
        try CoreDataFixture.library.write(to: url)
        let location = try StoreLocation(url.path)
        #expect(location == .foreignDatabase(path: url.path))
        let opened = try #require(try StoreOpening.foreignDatabase(location))
        #expect(opened.kind == .coreData)
    }

    @Test("nothing at the path, or a symbolic link to nothing, is where an SQLite store would be made; both are absent")
    func missingPath() throws {
        let missing = directory.file("missing.sqlite").path
        #expect(try StoreLocation(missing) == .sqliteFile(path: missing))
        #expect(StoreLocation.isAbsent(missing))
        let dangling = directory.file("dangling.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: missing)
        #expect(try StoreLocation(dangling) == .sqliteFile(path: dangling))
        #expect(StoreLocation.isAbsent(dangling))
        #expect(!FileManager.default.fileExists(atPath: missing), "deciding created the link's target")
    }

    @Test("an empty file is an SQLite file (a store to be), and stays empty")
    func emptyFile() throws {
        let url = directory.file("empty.sqlite")
        try Data().write(to: url)
        #expect(try StoreLocation(url.path) == .sqliteFile(path: url.path))
        #expect(FileKind(path: url.path).size == 0)
    }

    @Test("a FIFO is refused before it is opened, naming it and what it is; it stays a FIFO")
    func fifo() throws {
        let fifo = directory.file("pipe.sqlite").path
        try #require(mkfifo(fifo, 0o644) == 0)
        // Opening it would block until a writer came: the test would hang, not fail.
        let error = try #require(throws: StoreError.self) { try StoreLocation(fifo) }
        #expect("\(error)".contains(fifo) && "\(error)".contains("a FIFO (named pipe)"), "\(error)")
        #expect(!StoreLocation.isAbsent(fifo))
        #expect(try StoreLocation.store(orModelFile: fifo) == nil, "quarry model leaves a FIFO to the model loader")
        #expect(StoreLocation(newStoreAt: fifo) == .sqliteFile(path: fifo), "a new store's path is the creating command's to refuse")
        #expect(FileKind(path: fifo).kind == .fifo)
    }

    @Test("a character device is refused, naming it and what it is")
    func characterDevice() throws {
        let link = directory.file("null").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        let error = try #require(throws: StoreError.self) { try StoreLocation(link) }
        #expect("\(error)".contains(link) && "\(error)".contains("character device"), "\(error)")
    }

    @Test("a file that is not SQLite is refused, naming it; it is left as it was")
    func notSQLite() throws {
        let url = try QuarryExecutable.write("hello, not a database\n", to: directory.file("notes.sqlite"))
        let before = try fingerprint()
        let error = try #require(throws: (any Error).self) { try StoreLocation(url.path) }
        #expect("\(error)".contains(url.path), "\(error)")
        #expect(try fingerprint() == before)
    }

    @Test("a folder that is not a JSON store is a JSON folder, which the JSON store refuses when opened, naming it")
    func folderThatIsNotAJSONStore() throws {
        let folder = directory.file("photos")
        try QuarryExecutable.write("not a store", to: folder.appendingPathComponent("notes.txt"))
        let location = try StoreLocation(folder.path)
        #expect(location == .jsonFolder(path: folder.path))
        let before = try fingerprint()
        let error = try #require(throws: (any Error).self) { try StoreOpening.recordedModel(location) }
        #expect("\(error)".contains(folder.path), "\(error)")
        #expect(try fingerprint() == before)
    }

    @Test("a symbolic link is decided by what it names, and keeps its own path")
    func symbolicLinks() throws {
        let store = try quarryStore()
        let folder = directory.file("store.jsonstore")
        _ = try JSONStore(url: folder, model: TestModels.tickers())
        let plain = try PlainSQLiteFixture.write(to: directory.file("library.sqlite"))
        for (target, expected) in [(store, StoreLocation.sqliteFile(path:)), (folder, StoreLocation.jsonFolder(path:)),
                                   (plain, StoreLocation.foreignDatabase(path:))] {
            let link = directory.file("link-to-\(target.lastPathComponent)").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target.path)
            #expect(try StoreLocation(link) == expected(link))
        }
    }

    @Test("deciding writes nothing: no file is changed, none is made beside a store")
    func decidingWritesNothing() throws {
        let store = try quarryStore()
        let plain = try PlainSQLiteFixture.write(to: directory.file("library.sqlite"))
        let coreData = directory.file("Library.sqlite")
        try CoreDataFixture.library.write(to: coreData)
        let before = try fingerprint()
        for url in [store, plain, coreData] { _ = try StoreLocation(url.path) }
        #expect(try fingerprint() == before)
    }

    @Test("quarry model's argument is a store when it is a URL or an SQLite file, else a model file")
    func storeOrModelFile() throws {
        let store = try quarryStore()
        #expect(try StoreLocation.store(orModelFile: store.path) == .sqliteFile(path: store.path))
        let plain = try PlainSQLiteFixture.write(to: directory.file("library.sqlite"))
        #expect(try StoreLocation.store(orModelFile: plain.path) == .foreignDatabase(path: plain.path))
        let model = try QuarryExecutable.write(TestModels.tickers().definition.jsonText(), to: directory.file("Tickers.json"))
        #expect(try StoreLocation.store(orModelFile: model.path) == nil)
        let url = "postgres://user@db.example/quarry"
        #expect(try StoreLocation.store(orModelFile: url) == .postgreSQL(url: url))
    }
}
