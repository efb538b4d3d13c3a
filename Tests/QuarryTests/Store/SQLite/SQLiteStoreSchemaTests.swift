import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite struct SQLiteStoreSchemaTests {
    let dir = TemporaryDirectory()

    @Test func newStoreHasCoreDataLikeTables() throws {
        let url = dir.file("t.sqlite")
        _ = try SQLiteStore(url: url, model: TestModels.tickers())
        try inspect(url) { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            #expect(tables == ["Asset", "Person", "Portfolio", "Quote", "Sector", "Tag", "Ticker", "Z_HISTORYCHANGE", "Z_HISTORYTRANSACTION",
                               "Z_METADATA", "Z_PRIMARYKEY", "Z_Portfolio_holdings", "Z_Tag_tickers", "sqlite_sequence"])
            #expect(try db.columns(in: "Ticker").map(\.name)
                == ["Z_PK", "Z_ENT", "Z_OPT", "active", "listed", "name", "price", "symbol", "volume", "sector"])
            #expect(try db.columns(in: "Asset").map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "code", "value", "coupon", "maturity", "exchange"])
            #expect(try db.columns(in: "Quote").map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "price", "time", "ticker"])
            #expect(try db.columns(in: "Z_Tag_tickers").map(\.name) == ["Z_SRC", "Z_DST", "Z_DST_ENT", "Z_ORD"])
            #expect(try db.columns(in: "Ticker").first { $0.name == "price" }?.type == "REAL")
            let indexes = try db.indexes(on: "Sector")
            #expect(indexes.contains { $0.isUnique && $0.columns == ["name"] })
            #expect(try db.indexes(on: "Ticker").contains { $0.columns == ["symbol"] })
            #expect(try db.indexes(on: "Quote").contains { $0.columns == ["ticker"] })
            #expect(try db.indexes(on: "Z_Tag_tickers").contains { $0.columns == ["Z_DST"] })
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Z_PRIMARYKEY") == 7)
            #expect(try String.fetchOne(db, sql: "SELECT value FROM Z_METADATA WHERE key = 'quarryVersion'") == QuarryVersion.string,
                    "the store records the version of Quarry that made it")
        }
    }

    @Test func storeOpensWithoutItsModel() throws {
        let url = dir.file("t.sqlite")
        let created = try SQLiteStore(url: url, model: TestModels.tickers())
        let reopened = try SQLiteStore(url: url, model: nil)
        #expect(reopened.model == TestModels.tickers())
        #expect(reopened.identifier == created.identifier)
        let metadata = try SQLiteStore.readMetadata(url: url)
        #expect(metadata.identifier == created.identifier)
        #expect(metadata.modelVersionHash == TestModels.tickers().versionHash)
        #expect(SQLiteStore.fileSize(url: url) > 0)
    }

    @Test func differentModelIsRefusedNamingEntitiesAndFileIsUntouched() throws {
        let url = dir.file("t.sqlite")
        _ = try SQLiteStore(url: url, model: TestModels.tickers())
        var definition = TestModels.tickerDefinition()
        let quote = definition.entities.firstIndex { $0.name == "Quote" }!
        definition.entities[quote].attributes.append(AttributeDescription(name: "bid", type: .double))
        definition.entities.removeAll { $0.name == "Bond" }
        definition.entities.append(EntityDefinition(name: "Extra"))
        try DatabaseQueue(path: url.path).writeWithoutTransaction { _ = try $0.checkpoint(.truncate) }
        let before = try Data(contentsOf: url)
        #expect(throws: StoreError.modelMismatch(path: url.path, entities: ["Bond", "Extra", "Quote"])) {
            try SQLiteStore(url: url, model: ManagedObjectModel(definition))
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func fileThatIsNotSQLiteIsRefusedAndUntouched() throws {
        let url = dir.file("notes.txt")
        let bytes = Data("these are not the bytes you are looking for\n".utf8)
        try bytes.write(to: url)
        #expect(throws: StoreError.notADatabase(path: url.path)) { try SQLiteStore(url: url, model: TestModels.tickers()) }
        #expect(throws: StoreError.notADatabase(path: url.path)) { try SQLiteStore.readMetadata(url: url) }
        #expect(try Data(contentsOf: url) == bytes)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func sqliteFileWithoutMetadataNeedsNoForeignTables() throws {
        let url = dir.file("other.sqlite")
        try DatabaseQueue(path: url.path).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        #expect(throws: StoreError.notAQuarryStore(path: url.path)) { try SQLiteStore(url: url, model: nil) }
        #expect(throws: StoreError.notAQuarryStore(path: url.path)) { try SQLiteStore(url: url, model: TestModels.tickers()) }
    }

    @Test func readOnlyStoreRefusesSaves() throws {
        let url = dir.file("t.sqlite")
        let writable = try SQLiteStore(url: url, model: TestModels.tickers())
        let make = ChangeMaker(model: writable.model)
        let ids = try writable.insert([make.insert("Sector", ["name": .string("Tech")])])
        var readOnly = try SQLiteStore(url: url, model: nil, options: .init(readOnly: true))
        #expect(readOnly.isReadOnly)
        #expect(try readOnly.snapshot(ids[0])?.values == [.string("Tech")])
        // Also when no writer has the file open (no WAL file around).
        try DatabaseQueue(path: url.path).writeWithoutTransaction { _ = try $0.checkpoint(.truncate) }
        readOnly = try SQLiteStore(url: url, model: nil, options: .init(readOnly: true))
        #expect(try readOnly.snapshot(ids[0])?.values == [.string("Tech")])
        var changes = StoreChangeSet()
        changes.inserts = [make.insert("Sector", ["name": .string("Energy")])]
        #expect(throws: StoreError.readOnly(path: url.path)) { try readOnly.save(changes) { _ in .fail } }
        #expect(throws: StoreError.cannotOpen(path: dir.file("none.sqlite").path, reason: "no such file (a read-only store is never created)")) {
            try SQLiteStore(url: dir.file("none.sqlite"), model: nil, options: .init(readOnly: true))
        }
        #expect(try readOnly.count(for: StoreQuery(entity: make.entity("Sector"))) == 1)
    }

    @Test func writeLockedByAnotherConnectionFailsWithLocked() throws {
        let url = dir.file("t.sqlite")
        let store = try SQLiteStore(url: url, model: TestModels.tickers(), options: .init(busyTimeout: 0.05))
        let make = ChangeMaker(model: store.model)
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: url.path, configuration: configuration)
        try other.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
        var changes = StoreChangeSet()
        changes.inserts = [make.insert("Sector", ["name": .string("Tech")])]
        #expect(throws: StoreError.locked(path: url.path)) { try store.save(changes) { _ in .fail } }
        try other.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        #expect(try store.count(for: StoreQuery(entity: make.entity("Sector"))) == 0)
        try store.insert(changes.inserts)
        #expect(try store.count(for: StoreQuery(entity: make.entity("Sector"))) == 1)
    }
}
