import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A property mask holding `index`.
func mask(_ index: Int) -> PropertyMask {
    var m = PropertyMask()
    m.insert(index)
    return m
}

/// A PostgreSQL store in a fresh schema, dropped afterwards.
struct PostgreSQLScratchStore {
    let url: PostgreSQLStoreURL

    init(label: String = "store") throws {
        url = try PostgreSQLStoreURL(parsing: PostgreSQLTestServer.freshStoreURL(label: label)!)
    }

    /// Runs `body` with the URL, then destroys the store.
    func run<T>(_ body: (PostgreSQLStoreURL) throws -> T) throws -> T {
        defer { try? PostgreSQLStore.destroy(url: url) }
        return try body(url)
    }

    /// Runs `body` with a store of `model` in the schema, then closes and destroys it.
    func withStore<T>(_ model: ManagedObjectModel = TestModels.tickers(), _ body: (PostgreSQLStore) throws -> T) throws -> T {
        try run { url in
            let store = try PostgreSQLStore(url: url, model: model)
            defer { store.close() }
            return try body(store)
        }
    }

    /// Saves a new `Sector` named `name` in `store`; returns its ID.
    static func saveSector(_ store: PostgreSQLStore, _ name: String) throws -> ObjectID {
        var insert = StoreChangeSet()
        insert.inserts = [Self.insert(store.model.entity(named: "Sector")!, ["name": .string(name)])]
        return try store.save(insert) { _ in .fail }.changes.inserted[0]
    }

    /// An update of `id` from its committed state `base`, its first attribute (a sector's
    /// name) set to `name`.
    static func renameSector(_ id: ObjectID, base: Snapshot, to name: String) -> StoreChangeSet {
        var renamed = base
        renamed.values[0] = .string(name)
        var update = StoreChangeSet()
        update.updates = [ObjectChange(id: id, snapshot: renamed, committed: base, changed: mask(0))]
        return update
    }

    /// An insert of a new object of `entity` with `values` (by attribute name).
    static func insert(_ entity: EntityDescription, _ values: [String: Value], toOne: [String: ObjectID] = [:]) -> ObjectChange {
        var snapshot = Snapshot(defaultsFor: entity)
        for (name, value) in values { snapshot.values[entity.attributeIndex(name)!] = value }
        for (name, id) in toOne { snapshot.toOne[entity.relationshipIndex(name)!] = id }
        return ObjectChange(id: ObjectID.temporary(entityIndex: entity.index), snapshot: snapshot)
    }
}

@Suite("PostgreSQL store", .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLStoreTests {
    @Test("a new store is made in its schema and reopens without a model, reading the stored one back")
    func createAndReopen() throws {
        try PostgreSQLScratchStore().run { url in
            #expect(try !PostgreSQLStore.storeExists(url: url))
            let model = TestModels.tickers()
            let store = try PostgreSQLStore(url: url, model: model)
            var changes = StoreChangeSet()
            changes.inserts = [PostgreSQLScratchStore.insert(model.entity(named: "Sector")!, ["name": .string("Énergie")])]
            let saved = try store.save(changes) { _ in .fail }
            store.close()
            #expect(try PostgreSQLStore.storeExists(url: url))

            let reopened = try PostgreSQLStore(url: url, model: nil)
            defer { reopened.close() }
            #expect(reopened.identifier == store.identifier)
            #expect(reopened.model.versionHash == model.versionHash)
            #expect(reopened.url?.absoluteString == url.description)
            let id = saved.changes.inserted[0]
            #expect(try reopened.snapshots(for: [id])[id]?.values[0] == .string("Énergie"))
        }
    }

    @Test("opening a store with a different model is refused with modelMismatch naming the URL")
    func modelMismatchRefused() throws {
        try PostgreSQLScratchStore().run { url in
            try PostgreSQLStore(url: url, model: TestModels.tickers()).close()
            #expect {
                try PostgreSQLStore(url: url, model: try TestModels.everyFeature())
            } throws: { error in
                guard case StoreError.modelMismatch(let path, let entities) = error else { return false }
                return path == url.description && !entities.isEmpty
            }
        }
    }

    @Test("destroy drops a Quarry store's schema but refuses one with tables of its own")
    func destroyRefusesForeignSchemas() throws {
        let url = try PostgreSQLScratchStore(label: "foreign").url
        let pool = try PostgreSQLConnectionPool(url: url, maximumConnections: 1)
        defer { pool.close() }
        try pool.withConnection { c in
            try c.execute("CREATE SCHEMA \(sqlIdentifier(url.schema))")
            try c.execute("CREATE TABLE mine (v bigint)")
        }
        defer { _ = try? pool.withConnection { try $0.execute("DROP SCHEMA \(sqlIdentifier(url.schema)) CASCADE") } }
        #expect(throws: StoreError.notAQuarryStore(path: url.description)) { try PostgreSQLStore.destroy(url: url) }
        #expect(throws: StoreError.notAQuarryStore(path: url.description)) { try PostgreSQLStore(url: url, model: TestModels.tickers()) }
        #expect(try pool.withConnection { try $0.query("SELECT count(*) FROM mine") }.count == 1)
    }

    @Test("every attribute type round-trips exactly (text with accents, decimals, dates, UUIDs, URIs, JSON, bytes)")
    func everyAttributeTypeRoundTrips() throws {
        try PostgreSQLScratchStore().run { url in
            let model = try TestModels.everyFeature()
            let store = try PostgreSQLStore(url: url, model: model)
            defer { store.close() }
            let item = model.entity(named: "Item")!
            let owner = model.entity(named: "Owner")!
            let values: [String: Value] = [
                "plainInteger16": .integer(-32_768), "plainInteger32": .integer(2_000_000_000), "plainInteger64": .integer(Int64.min + 1),
                "plainDecimal": .decimal(Decimal(string: "-1234567890.0000001")!), "plainDouble": .double(-0.1 + 1e-17),
                "plainFloat": .double(3.25), "plainString": .string("e\u{301}clair 東京 😀 'quote' \\ %_*?"), "plainBoolean": .bool(true),
                "plainDate": .date(Date(timeIntervalSinceReferenceDate: 98_765.432_1)), "plainBinary": .data(Data([0, 1, 2, 255, 0])),
                "plainUUID": .uuid(UUID()), "plainURI": .uri(URL(string: "https://example.com/ü?q=1#f")!),
                "plainTransformable": .json(.object(["a": .array([.number(1.5), .null, .string("é")])])),
                "code": .string("AB1"), "created": .date(Date(timeIntervalSinceReferenceDate: 1)),
            ]
            var changes = StoreChangeSet()
            let ownerInsert = PostgreSQLScratchStore.insert(owner, ["name": .string("o")])
            changes.inserts = [ownerInsert, PostgreSQLScratchStore.insert(item, values, toOne: ["owner": ownerInsert.id])]
            let result = try store.save(changes) { _ in .fail }
            let id = result.changes.inserted[1]
            let read = try #require(try store.snapshots(for: [id])[id])
            #expect(read == result.changes.insertedSnapshots[1])
            for (name, value) in values { #expect(read.values[item.attributeIndex(name)!] == value, "\(name)") }
            #expect(read.toOne[item.relationshipIndex("owner")!] == result.changes.inserted[0])
            #expect(read.version == 1)
        }
    }

    @Test("to-one, to-many, ordered and many-to-many relationships read back through a context")
    func relationshipsRoundTrip() throws {
        try PostgreSQLScratchStore().run { url in
            let store = try PostgreSQLStore(url: url, model: TestModels.tickers())
            defer { store.close() }
            let coordinator = StoreCoordinator(store: store, name: "pg")
            let writer = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "w")
            let ids = try writer.performAndWait { () -> (ObjectID, ObjectID, [ObjectID]) in
                let sector = try writer.insert(Sector.self)
                sector.name = "Tech"
                let tags = try (0..<3).map { i -> TickerTag in let t = try writer.insert(TickerTag.self); t.label = "tag\(i)"; return t }
                var tickers: [Ticker] = []
                for i in 0..<4 {
                    let t = try writer.insert(Ticker.self)
                    t.symbol = "T\(i)"
                    t.sector = sector
                    for tag in tags where i % 2 == 0 || tag.label == "tag1" { try t.add(tag, toKey: "tags") }
                    tickers.append(t)
                }
                let person = try writer.insert(Person.self)
                person.name = "P"
                let portfolio = try writer.insert(Portfolio.self)
                portfolio.owner = person
                portfolio.holdings = [tickers[2], tickers[0], tickers[3]]
                try writer.save()
                return (sector.objectID, portfolio.objectID, tickers.map(\.objectID))
            }
            let reader = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "r"), name: "r")
            try reader.performAndWait {
                let sector = try #require(reader.object(with: ids.0) as? Sector)
                #expect(Set(try sector.objectIDs(forKey: "tickers")) == Set(ids.2))
                let portfolio = try #require(reader.object(with: ids.1) as? Portfolio)
                #expect(portfolio.holdings.map(\.objectID) == [ids.2[2], ids.2[0], ids.2[3]])
                #expect(portfolio.owner?.name == "P")
                let first = try #require(reader.object(with: ids.2[0]) as? Ticker)
                #expect(try first.objects(forKey: "tags").count == 3)
                let second = try #require(reader.object(with: ids.2[1]) as? Ticker)
                #expect(try second.objects(forKey: "tags").count == 1)
                #expect(second.sector?.name == "Tech")
            }
            // The many-to-many's other side, through the store.
            let tag = try store.objectIDs(for: StoreQuery(entity: store.model.entity(named: "Tag")!, predicate: try ObjectPredicate(format: "label == 'tag1'")))[0]
            let tagEntity = store.model.entity(named: "Tag")!
            #expect(Set(try store.relatedIDs(of: tag, relationship: tagEntity.relationshipIndex("tickers")!)) == Set(ids.2))
        }
    }

    @Test("a stale update calls resolve inside the save with the persisted row; keepPersisted rolls the change back")
    func staleUpdateIsResolved() throws {
        try PostgreSQLScratchStore().withStore { store in
            let id = try PostgreSQLScratchStore.saveSector(store, "A")
            let base = try #require(try store.snapshots(for: [id])[id])
            let written = try store.save(PostgreSQLScratchStore.renameSector(id, base: base, to: "B")) { _ in .fail }
            #expect(written.written[id]?.version == 2)

            // Based on version 1, which the save above replaced.
            let update = PostgreSQLScratchStore.renameSector(id, base: base, to: "C")
            let stale = update.updates[0].snapshot
            var seen: [MergeConflict] = []
            let result = try store.save(update) { conflict in
                seen.append(conflict)
                return .keepPersisted
            }
            #expect(seen.count == 1)
            #expect(seen.first?.persistedSnapshot?.values[0] == .string("B"))
            #expect(seen.first?.newVersion == 2 && seen.first?.oldVersion == 1)
            #expect(result.rolledBack[id] == .some(written.written[id]))
            #expect(try store.snapshots(for: [id])[id]?.values[0] == .string("B"))

            // `.write` overwrites at the next version.
            let overwritten = try store.save(update) { _ in .write(stale) }
            #expect(overwritten.written[id]?.version == 3)
            #expect(try store.snapshots(for: [id])[id]?.values[0] == .string("C"))
        }
    }

    @Test("a conflict resolved with fail throws MergeConflictError listing it, and nothing of the save is written")
    func failedConflictWritesNothing() throws {
        try PostgreSQLScratchStore().withStore { store in
            let model = store.model
            let sector = model.entity(named: "Sector")!
            let id = try PostgreSQLScratchStore.saveSector(store, "A")
            let token = try store.modificationToken()
            var stale = try #require(try store.snapshots(for: [id])[id])
            stale.version = 7
            var changes = StoreChangeSet()
            changes.inserts = [PostgreSQLScratchStore.insert(sector, ["name": .string("New")])]
            changes.updates = [ObjectChange(id: id, snapshot: stale, changed: mask(0))]
            changes.deletes = [(id: id, version: 9)]
            #expect {
                try store.save(changes) { _ in .fail }
            } throws: { error in
                (error as? MergeConflictError)?.conflicts.map(\.objectID) == [id, id]
            }
            #expect(try store.count(for: StoreQuery(entity: sector)) == 1)
            #expect(try store.modificationToken() == token)
            #expect(try store.currentHistoryToken() == HistoryToken(1))
        }
    }

    @Test("a duplicate value of a unique attribute throws uniquenessViolation naming the entity")
    func uniquenessViolation() throws {
        try PostgreSQLScratchStore().withStore { store in
            let model = store.model
            let sector = model.entity(named: "Sector")!
            var changes = StoreChangeSet()
            changes.inserts = [PostgreSQLScratchStore.insert(sector, ["name": .string("A")]), PostgreSQLScratchStore.insert(sector, ["name": .string("A")])]
            #expect(throws: StoreError.uniquenessViolation(entity: "Sector", keys: ["name"])) { try store.save(changes) { _ in .fail } }
            let count = try store.count(for: StoreQuery(entity: sector))
            #expect(count == 0)
        }
    }

    @Test("keyedIDs streams 10,000 rows in sort order with their keys; count, limit and offset agree")
    func keyedIDsOverManyRows() throws {
        try PostgreSQLScratchStore().withStore { store in
            let model = store.model
            let ticker = model.entity(named: "Ticker")!
            var changes = StoreChangeSet()
            changes.inserts = (0..<10_000).map { i in
                PostgreSQLScratchStore.insert(ticker, ["symbol": .string("S\(i)"), "volume": .integer(Int64(i % 97)), "price": .double(Double(i) / 8)])
            }
            let inserted = try store.save(changes) { _ in .fail }.changes.inserted
            #expect(inserted.count == 10_000)
            var request = StoreQuery(entity: ticker, sortDescriptors: [SortKey("volume", ascending: false)])
            let keyed = try store.keyedIDs(for: request, keyPaths: ["volume", "symbol"])
            #expect(keyed.count == 10_000)
            let expected = inserted.enumerated().sorted { a, b in
                a.offset % 97 != b.offset % 97 ? a.offset % 97 > b.offset % 97 : a.element < b.element
            }
            #expect(keyed.map(\.id) == expected.map(\.element))
            #expect(keyed.first?.keys == [.integer(96), .string("S\(expected[0].offset)")])
            request.predicate = try ObjectPredicate(format: "volume < 10")
            request.limit = 50
            request.offset = 10
            #expect(try store.count(for: request) == 50)
            request.limit = 0
            request.offset = 0
            #expect(try store.count(for: request) == inserted.indices.filter { $0 % 97 < 10 }.count)
        }
    }
}
