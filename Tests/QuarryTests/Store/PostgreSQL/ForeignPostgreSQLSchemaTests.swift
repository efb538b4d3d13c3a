import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A PostgreSQL schema Quarry did not make is read as it is: its catalog becomes a model, its
/// rows are read in Quarry's form through `WITH` clauses, queries run on the server, and
/// nothing can be written (see ``ForeignPostgreSQLSchema``).
@Suite("PostgreSQL schemas Quarry did not make, read as they are",
       .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct ForeignPostgreSQLSchemaTests {
    /// A fresh schema holding ``ForeignShopSchema`` with `rows` companies, and a pool that may
    /// write it (the test's own); ``drop()`` removes it.
    struct Shop {
        let url: PostgreSQLStoreURL
        let admin: PostgreSQLConnectionPool

        init(rows: Int) throws {
            url = try PostgreSQLStoreURL(parsing: try #require(PostgreSQLTestServer.freshStoreURL(label: "shop")))
            admin = try PostgreSQLConnectionPool(url: url, maximumConnections: 1)
            try ForeignShopSchema.create(schema: url.schema, rows: rows) { sql in _ = try admin.withConnection { try $0.execute(sql) } }
        }

        /// Drops the schema and closes the pool: a failure leaves the schema on the throwaway
        /// server only.
        func drop() {
            for sql in ForeignShopSchema.dropStatements(schema: url.schema) { _ = try? admin.withConnection { try $0.execute(sql) } }
            admin.close()
        }

        /// Runs `body` with a new login role (its password in the URL it gets) granted `grants`
        /// (statements with `ROLE` for its name), dropped afterwards.
        func withRole<T>(_ grants: [String], _ body: (PostgreSQLStoreURL, String) async throws -> T) async throws -> T {
            let role = "q_role_\(UUID().uuidString.prefix(8).lowercased())"
            _ = try admin.withConnection { try $0.execute("CREATE ROLE \(role) LOGIN PASSWORD 'pw-\(role)'") }
            defer {
                // Clean-up of the scratch role, as of the schema.
                _ = try? admin.withConnection { c in
                    _ = try c.execute("DROP OWNED BY \(role)")
                    return try c.execute("DROP ROLE \(role)")
                }
            }
            for grant in grants { _ = try admin.withConnection { try $0.execute(grant.replacingOccurrences(of: "ROLE", with: role)) } }
            var limited = url
            limited.user = role
            limited.urlPassword = "pw-\(role)"
            return try await body(limited, role)
        }
    }

    /// Runs `body` with a fresh ``Shop`` of `rows` companies, dropped afterwards.
    static func withShop<T>(rows: Int = 1_300, _ body: (PostgreSQLStoreURL, PostgreSQLConnectionPool) throws -> T) throws -> T {
        let shop = try Shop(rows: rows)
        defer { shop.drop() }
        return try body(shop.url, shop.admin)
    }

    static func open(_ url: PostgreSQLStoreURL) throws -> PostgreSQLStore {
        try PostgreSQLStore(url: url, model: nil, options: .init(readOnly: true))
    }

    static func ids(_ store: PostgreSQLStore, _ entity: String, _ format: String? = nil, sort: [SortKey] = [], limit: Int = 0) throws -> [ObjectID] {
        let query = StoreQuery(entity: store.model.entity(named: entity)!, predicate: try format.map { try ObjectPredicate(format: $0) },
                               sortDescriptors: sort, limit: limit)
        return try store.objectIDs(for: query)
    }

    static func count(_ store: PostgreSQLStore, _ entity: String, _ format: String? = nil) throws -> Int {
        try store.count(for: StoreQuery(entity: store.model.entity(named: entity)!, predicate: try format.map { try ObjectPredicate(format: $0) }))
    }

    @Test("the catalog becomes a model: every relation an entity, every column typed, single-column foreign keys relationships with inverses")
    func catalogBecomesAModel() throws {
        try Self.withShop { url, _ in
            #expect(try PostgreSQLStore.schemaKind(url: url) == .foreign)
            let store = try Self.open(url)
            defer { store.close() }
            let foreign = try #require(store.foreign)
            #expect(store.isReadOnly && !store.recordsHistory)
            #expect(foreign.warnings.isEmpty, "\(foreign.warnings)")
            #expect(store.model.entities.map(\.name) == ["big_companies", "company", "note", "quote", "sector"])
            let company = store.model.entity(named: "company")!
            var types: [String: AttributeType] = [:]
            for attribute in company.attributes { types[attribute.name] = attribute.type }
            #expect(types == ["id": .integer64, "sector_id": .integer32, "name": .string, "price": .decimal, "listed": .date,
                              "updated_at": .date, "info": .string, "ref": .uuid, "mood": .string, "tags": .string, "active": .boolean])
            #expect(company.attributes.first { $0.name == "name" }?.isOptional == false)
            #expect(company.attributes.first { $0.name == "price" }?.isOptional == true)
            let sector = company.relationships.first { $0.name == "sector" }
            #expect(sector?.destination == "sector" && sector?.isToMany == false && sector?.inverse == "company")
            #expect(store.model.entity(named: "sector")!.relationships.first { $0.name == "company" }?.isToMany == true)
            // A foreign key to a UNIQUE column that is not the key is followed too.
            #expect(store.model.entity(named: "note")!.relationships.map(\.name) == ["company"])
            #expect(foreign.estimatedRows["company"] == 1_300)
            // The same schema opened twice is the same store: both of a stack's stores agree.
            let again = try Self.open(url)
            defer { again.close() }
            #expect(again.identifier == store.identifier && again.model == store.model)
        }
    }

    @Test("what a schema holds: a Quarry store, tables Quarry did not make, or nothing")
    func schemaKinds() throws {
        let empty = try PostgreSQLStoreURL(parsing: try #require(PostgreSQLTestServer.freshStoreURL(label: "kind")))
        #expect(try PostgreSQLStore.schemaKind(url: empty) == .empty)
        let store = try PostgreSQLStore(url: empty, model: TestModels.tickers())
        store.close()
        defer { try? PostgreSQLStore.destroy(url: empty) }
        #expect(try PostgreSQLStore.schemaKind(url: empty) == .quarryStore)
        #expect(try PostgreSQLStore(url: empty, model: nil, options: .init(readOnly: true)).foreign == nil)
    }

    @Test("rows come in Quarry's form: decimals keep their scale, a date is a UTC midnight, timestamps exact, UUIDs, enums, arrays and JSON as text")
    func rowsInQuarrysForm() throws {
        try Self.withShop { url, admin in
            let store = try Self.open(url)
            defer { store.close() }
            let company = store.model.entity(named: "company")!
            let id = try #require(try Self.ids(store, "company", "id == 1250").first)
            #expect(id.primaryKey == 1250, "an integer primary key is the object's key")
            let snapshot = try #require(try store.snapshots(for: [id])[id])
            func value(_ name: String) -> Value { snapshot.values[company.attributeIndex(name)!] }
            guard case .decimal(let price) = value("price") else { Issue.record("price is \(value("price"))"); return }
            #expect(price.description == "12.50")
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let listed = utc.date(byAdding: .day, value: 1250, to: utc.date(from: DateComponents(year: 2000, month: 1, day: 1))!)!
            #expect(value("listed") == .date(listed))
            if case .date(let date) = value("listed") { #expect(CalendarDate(exactly: date) != nil, "a date reads as a UTC midnight") }
            let updated = utc.date(from: DateComponents(year: 2024, month: 1, day: 1))!.addingTimeInterval(1250 * 60)
            #expect(value("updated_at") == .date(updated))
            let md5 = try admin.withConnection { try $0.query("SELECT md5('1250')::uuid::text")[0][0].decode(String.self) }
            #expect(value("ref") == .uuid(UUID(uuidString: md5)!))
            #expect(value("mood") == .string("happy"))
            #expect(value("tags") == .string("{t0,x}"))
            #expect(value("info") == .string(#"{"n": 1250, "even": true}"#))
            #expect(value("active") == .bool(true))
            #expect(value("name") == .string("Company 1250"))
            #expect(snapshot.toOne[company.relationshipIndex("sector")!] == ObjectID(entityIndex: store.model.entity(named: "sector")!.index, primaryKey: 3))
        }
    }

    @Test("queries run on the server: predicates, [c] comparisons, key paths, sorts, limits, counts, views and relationships both ways")
    func queriesRunOnTheServer() throws {
        try Self.withShop { url, _ in
            let store = try Self.open(url)
            defer { store.close() }
            #expect(try Self.count(store, "company") == 1_300)
            #expect(try Self.count(store, "company", "price > 10") == 300)
            #expect(try Self.count(store, "company", "sector.name == 'sector 3'") == 109)
            #expect(try Self.count(store, "company", "name BEGINSWITH[c] 'COMPANY 12'") == 111)
            #expect(try Self.count(store, "company", "active == YES AND mood == 'ok'") == 217)
            let tenth = Date(timeIntervalSince1970: 947_548_800)   // 2000-01-11 00:00 UTC
            let early = StoreQuery(entity: store.model.entity(named: "company")!,
                                   predicate: try ObjectPredicate(format: "listed < %@", .value(.date(tenth))))
            #expect(try store.count(for: early) == 9)
            #expect(try Self.ids(store, "company", sort: [SortKey("price", ascending: false)], limit: 3).map(\.primaryKey) == [1300, 1299, 1298])
            #expect(try Self.count(store, "big_companies") == 800)
            let sectorEntity = store.model.entity(named: "sector")!
            let sector3 = ObjectID(entityIndex: sectorEntity.index, primaryKey: 3)
            #expect(try store.relatedIDs(of: sector3, relationship: sectorEntity.relationshipIndex("company")!).count == 109)
            // A composite key and a table without one: every row its own ID.
            let quotes = try Self.ids(store, "quote")
            #expect(quotes.count == 50 && Set(quotes).count == 50)
            #expect(try Self.count(store, "quote", "company.name == 'Company 1'") == 5)
            let notes = try Self.ids(store, "note", sort: [SortKey("body")])
            #expect(notes.count == 3 && Set(notes).count == 3)
            let note = store.model.entity(named: "note")!
            let snapshots = try store.snapshots(for: notes)
            let companies = notes.map { snapshots[$0]!.toOne[note.relationshipIndex("company")!]?.primaryKey }
            #expect(companies == [1, nil, 2], "first → Company 1, orphan → none, second → Company 2")
        }
    }

    @Test("read-only: a save is refused, the server refuses writes on the store's sessions, and nothing is created on it")
    func nothingIsWritten() throws {
        try Self.withShop { url, admin in
            let store = try Self.open(url)
            defer { store.close() }
            var insert = StoreChangeSet()
            insert.inserts = [PostgreSQLScratchStore.insert(store.model.entity(named: "sector")!, ["name": .string("x")])]
            #expect(throws: StoreError.readOnly(path: url.description)) { try store.save(insert) { _ in .fail } }
            #expect(throws: StoreError.self) {
                try store.read { try $0.execute("INSERT INTO \(sqlIdentifier(url.schema)).sector (name) VALUES ('x')") }
            }
            do {
                _ = try store.read { try $0.execute("INSERT INTO \(sqlIdentifier(url.schema)).sector (name) VALUES ('x')") }
            } catch let StoreError.postgreSQL(_, sqlState, _) {
                #expect(sqlState == "25006", "read_only_sql_transaction")
            }
            _ = try Self.count(store, "company", "sector.name == 'sector 3'")
            let temporary = try admin.withConnection { try $0.query("SELECT count(*) FROM pg_class WHERE relpersistence = 't'")[0][0].decode(Int64.self) }
            #expect(temporary == 0, "no temporary table or view")
            #expect(try store.modificationToken() == nil)
            #expect(throws: StoreError.self) { try store.currentHistoryToken() }
        }
    }

    @Test("a stack opens the schema read-only and a fetched-results controller sections and sorts its rows")
    func stackAndController() async throws {
        try await Self.withShopAsync { shop in
            let url = shop.url
            let model = try Self.open(url).model
            var options = PersistentStack.Options()
            options.storeURL = URL(string: url.description)!
            options.storeType = .postgreSQL
            options.readOnly = true
            let stack = try PersistentStack(model: model, options: options)
            #expect(stack.watchesRemoteChanges, "followed through logical replication")
            try await MainActor.run {
                let request = FetchRequest(entityName: "company", predicate: try ObjectPredicate(format: "price >= 12.9"),
                                           sortDescriptors: [SortKey("sector.name"), SortKey("name")])
                let controller = try FetchedResultsController(fetchRequest: request, context: stack.mainContext, sectionNameKeyPath: "sector.name")
                try controller.performFetch()
                #expect(controller.fetchedObjects.count == 11)
                #expect(controller.sections.map(\.name).first == "sector 1")
                let first = controller.object(at: RowPath(section: 0, row: 0))
                #expect(try first.value(forKey: "name") == .string("Company 1296"))
            }
        }
    }

    /// ``withShop(rows:_:)`` for an async body.
    static func withShopAsync(rows: Int = 1_300, _ body: (Shop) async throws -> Void) async throws {
        let shop = try Shop(rows: rows)
        defer { shop.drop() }
        try await body(shop)
    }

    @Test("a relation the role may not read is skipped with a warning naming it and the role; the rest opens")
    func relationWithoutRights() async throws {
        try await Self.withShopAsync(rows: 20) { shop in
            let schema = sqlIdentifier(shop.url.schema)
            try await shop.withRole(["GRANT USAGE ON SCHEMA \(schema) TO ROLE", "GRANT SELECT ON ALL TABLES IN SCHEMA \(schema) TO ROLE",
                                     "REVOKE SELECT ON \(schema).quote FROM ROLE"]) { limited, role in
                let store = try Self.open(limited)
                defer { store.close() }
                #expect(store.model.entity(named: "quote") == nil)
                #expect(store.foreign?.warnings == ["\(limited): table quote skipped: the role \(role) may not read it"])
                #expect(try Self.count(store, "company") == 20)
                #expect(!store.foreign!.warnings[0].contains("pw-"), "the password is never shown")
            }
        }
    }
}
