import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Real-world Xcode models whose names clash in SQLite (issue 16, real-world items 3, 4 and 7):
/// properties differing only in case, siblings declaring one name with different types, and
/// names Quarry uses itself. Each gets its own table or column; names that never clashed stay
/// as they always were.
@Suite struct SQLiteColumnNamingTests {
    let dir = TemporaryDirectory()

    /// Saves one object per entry of `rows` (entity name, values) through `stack`.
    private func save(_ rows: [(String, [String: Value])], in stack: PersistentStack) throws {
        let context = stack.importerContext()
        try context.performAndWait {
            for (entity, values) in rows { try context.insertObject(entityName: entity).setValues(values) }
            try context.save()
        }
    }

    /// `keys` of every object `request` fetches from the store, through a fresh context of `stack`.
    private func fetch(_ request: Quarry.FetchRequest, _ keys: [String], in stack: PersistentStack) throws -> [[Value]] {
        let context = stack.importerContext()
        return try context.performAndWait {
            try context.fetch(request).map { object in keys.map { object[$0] } }
        }
    }

    /// The columns of `table`, read through the stack's own connections (another connection
    /// could race the stack's checkpoints).
    private func columns(_ stack: PersistentStack, _ table: String) throws -> [String] {
        try (stack.writerCoordinator.store as! SQLiteStore).pool.read { try $0.columns(in: table).map(\.name) }
    }

    // MARK: Item 3: names differing only in case

    @Test func propertiesDifferingOnlyInCaseGetSeparateColumns() throws {
        let body = """
            <entity name="Person" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="Name" optional="YES" attributeType="String"/>
                <attribute name="age" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                <attribute name="AGE" optional="YES" attributeType="String" indexed="YES"/>
            </entity>
            """
        let (definition, warnings) = try ModelDefinition.xcodeContents(Data(XcodeFixtures.document(body).utf8), path: "People.xcdatamodel/contents")
        let model = try ManagedObjectModel(definition, warnings: warnings)
        let stack = try PersistentStack(model: model, storeURL: dir.file("people.sqlite"))
        try save([("Person", ["name": .string("ada"), "Name": .string("ADA"), "age": .integer(36), "AGE": .string("thirty-six")]),
                  ("Person", ["name": .string("bob"), "Name": .string("BOB"), "age": .integer(7), "AGE": .string("seven")])],
                 in: stack)
        // Properties sort by name (`AGE`, `Name`, `age`, `name`): the first of each pair keeps its name.
        #expect(try columns(stack, "Person") == ["Z_PK", "Z_ENT", "Z_OPT", "AGE", "Name", "Person_age", "Person_name"])
        let rows = try fetch(Quarry.FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "name == %@", "bob"),
                                          sortDescriptors: [SortKey("Name")]),
                             ["name", "Name", "age", "AGE"], in: stack)
        #expect(rows == [[.string("bob"), .string("BOB"), .integer(7), .string("seven")]])
        let sorted = try fetch(Quarry.FetchRequest(entityName: "Person", sortDescriptors: [SortKey("age", ascending: false)]), ["name"], in: stack)
        #expect(sorted == [[.string("ada")], [.string("bob")]])
    }

    // MARK: Item 4: siblings declaring one name with different types

    /// `Album` sorts before `Book`, so its INTEGER `code` is laid out first: the old layout
    /// stored Book's strings in that column, and `"0123"` came back as `"123"`.
    private func siblingsModel() throws -> ManagedObjectModel {
        var builder = ModelBuilder()
        builder.entity("Item", abstract: true) { $0.attribute("title", .string) }
        builder.entity("Album", parent: "Item") { e in
            e.attribute("code", .integer64, indexed: true)
            e.attribute("pages", .integer16)
            e.toOne("label", destination: "Label", inverse: "albums")
        }
        builder.entity("Book", parent: "Item") { e in
            e.attribute("code", .string, indexed: true)
            e.attribute("pages", .integer32)
            e.attribute("label", .string)
            e.unique("code")
        }
        builder.entity("Label") { e in
            e.attribute("name", .string)
            e.toMany("albums", destination: "Album", inverse: "label")
        }
        return try builder.build()
    }

    @Test func siblingsWithOneNameOfDifferentTypesDoNotShareAColumn() throws {
        let stack = try PersistentStack(model: siblingsModel(), storeURL: dir.file("items.sqlite"))
        try save([("Book", ["code": .string("0123"), "title": .string("B1"), "pages": .integer(10), "label": .string("L")]),
                  ("Book", ["code": .string("0042"), "title": .string("B2"), "pages": .integer(20)]),
                  ("Album", ["code": .integer(7), "title": .string("A1"), "pages": .integer(1)]),
                  ("Album", ["code": .integer(123), "title": .string("A2"), "pages": .integer(2)])],
                 in: stack)
        // Same name and SQL type (`pages`, both INTEGER) still share one column, as before;
        // Book's `label` (TEXT, an attribute: laid out before to-ones) moves Album's to-one aside.
        #expect(try columns(stack, "Item") == ["Z_PK", "Z_ENT", "Z_OPT", "title", "code", "pages", "label", "Book_code", "Album_label"])
        let books = try fetch(Quarry.FetchRequest(entityName: "Book", sortDescriptors: [SortKey("code")]), ["code", "label"], in: stack)
        #expect(books == [[.string("0042"), .null], [.string("0123"), .string("L")]], "a leading zero is kept: the string is not read back as 123")
        let filtered = try fetch(Quarry.FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "code BEGINSWITH '01'")), ["title"], in: stack)
        #expect(filtered == [[.string("B1")]])
        let albums = try fetch(Quarry.FetchRequest(entityName: "Album", predicate: try ObjectPredicate(format: "code > 10"),
                                                   sortDescriptors: [SortKey("code", ascending: false)]), ["title", "code"], in: stack)
        #expect(albums == [[.string("A2"), .integer(123)]])
        let all = try fetch(Quarry.FetchRequest(entityName: "Item", sortDescriptors: [SortKey("title")]), ["title", "code", "pages"], in: stack)
        #expect(all == [[.string("A1"), .integer(7), .integer(1)], [.string("A2"), .integer(123), .integer(2)],
                        [.string("B1"), .string("0123"), .integer(10)], [.string("B2"), .string("0042"), .integer(20)]])
    }

    @Test func aToOneBesideASiblingsAttributeOfItsNameKeepsItsDestination() throws {
        let stack = try PersistentStack(model: siblingsModel(), storeURL: dir.file("items.sqlite"))
        let context = stack.importerContext()
        try context.performAndWait {
            let label = try context.insertObject(entityName: "Label")
            label["name"] = .string("Blue Note")
            for n in 1...2 {
                let album = try context.insertObject(entityName: "Album")
                album["title"] = .string("A\(n)")
                try album.setObject(label, forKey: "label")
            }
            try context.insertObject(entityName: "Book").setValues(["title": .string("B"), "label": .string("Blue Note")])
            try context.save()
        }
        let reader = stack.importerContext()
        try reader.performAndWait {
            let albums = try reader.fetch(Quarry.FetchRequest(entityName: "Album", predicate: try ObjectPredicate(format: "label.name == %@", "Blue Note"),
                                                              sortDescriptors: [SortKey("label.name"), SortKey("title")]))
            #expect(albums.map { $0["title"] } == [.string("A1"), .string("A2")])
            let label = try #require(try reader.fetch(Quarry.FetchRequest(entityName: "Label")).first)
            #expect(try label.objects(forKey: "albums").count == 2)
            let withAlbums = try reader.fetch(Quarry.FetchRequest(entityName: "Label", predicate: try ObjectPredicate(format: "albums.@count == 2")))
            #expect(withAlbums.count == 1)
            let books = try reader.fetch(Quarry.FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "label == %@", "Blue Note")))
            #expect(books.count == 1)
        }
    }

    @Test func aSiblingsRenamedColumnIsIndexedAndConstrained() throws {
        let url = dir.file("items.sqlite")
        _ = try SQLiteStore(url: url, model: siblingsModel())
        try inspect(url) { db in
            let indexes = try db.indexes(on: "Item")
            #expect(indexes.contains { $0.name == "Book_code_index" && $0.columns == ["Book_code"] })
            #expect(indexes.contains { $0.name == "Album_code_index" && $0.columns == ["code"] })
            #expect(indexes.contains { $0.isUnique && $0.columns == ["Book_code"] })
            #expect(indexes.contains { $0.name == "Item_Album_label_fk" && $0.columns == ["Album_label"] }, "the foreign key is indexed")
        }
        let store = try SQLiteStore(url: url, model: siblingsModel())
        let changes = ChangeMaker(model: store.model)
        try store.insert([changes.insert("Book", ["code": .string("x")])])
        #expect(throws: (any Error).self, "the uniqueness constraint holds on the renamed column") {
            try store.insert([changes.insert("Book", ["code": .string("x")])])
        }
        try store.insert([changes.insert("Album", ["code": .integer(1)]), changes.insert("Album", ["code": .integer(1)])])
    }

    // MARK: Item 7: names Quarry uses itself

    private func collidingModel() throws -> ManagedObjectModel {
        var builder = ModelBuilder()
        builder.entity("Z_METADATA") { e in
            e.attribute("Z_PK", .string, indexed: true)
            e.attribute("z_ent", .integer64)
            e.attribute("Z_OPT", .double)
            e.attribute("Z_FOK_owner", .string)
            e.attribute("owner_ENT", .string)
            e.toOne("owner", destination: "Owner", inverse: "entries")
        }
        builder.entity("z_primarykey") { $0.attribute("key", .string) }
        builder.entity("Owner") { e in
            e.attribute("name", .string)
            e.toMany("entries", destination: "Z_METADATA", inverse: "owner", ordered: true)
            e.toMany("tags", destination: "Tag")
        }
        builder.entity("SpecialOwner", parent: "Owner")
        builder.entity("Z_Owner_tags") { $0.attribute("label", .string) }
        builder.entity("Tag") { $0.attribute("label", .string) }
        builder.entity("sqlite_stat") { $0.attribute("x", .integer16) }
        return try builder.build()
    }

    @Test func entitiesAndAttributesNamedLikeQuarrysOwnAreStoredUnderSafeNames() throws {
        let model = try collidingModel()
        let url = dir.file("clash.sqlite")
        let stack = try PersistentStack(model: model, storeURL: url)
        try save((0..<3).map { i in
            ("Z_METADATA", ["Z_PK": .string("pk\(2 - i)"), "z_ent": .integer(Int64(i)), "Z_OPT": .double(Double(i) / 2),
                            "Z_FOK_owner": .string("f\(i)"), "owner_ENT": .string("e\(i)")])
        } + [("z_primarykey", ["key": .string("k")]), ("Z_Owner_tags", ["label": .string("l")]), ("sqlite_stat", ["x": .integer(1)])],
                 in: stack)
        try (stack.writerCoordinator.store as! SQLiteStore).pool.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")
            // The entity `Z_Owner_tags` keeps its name; the join table of `Owner.tags` moves aside.
            #expect(tables == ["Owner", "Q_Z_METADATA", "Q_Z_Owner_tags", "Q_sqlite_stat", "Q_z_primarykey", "Tag", "Z_HISTORYCHANGE",
                               "Z_HISTORYTRANSACTION", "Z_METADATA", "Z_Owner_tags", "Z_PRIMARYKEY"])
            #expect(try db.columns(in: "Q_Z_METADATA").map(\.name) == [
                "Z_PK", "Z_ENT", "Z_OPT", "Z_FOK_owner", "owner_ENT", "owner",
                "Z_METADATA_Z_OPT", "Z_METADATA_Z_PK", "Z_METADATA_z_ent", "Z_METADATA_owner_ENT", "Z_METADATA_Z_FOK_owner"])
            #expect(try db.indexes(on: "Q_Z_METADATA").contains { $0.columns == ["Z_METADATA_Z_PK"] })
            #expect(try Set(String.fetchAll(db, sql: "SELECT Z_ROOT FROM Z_PRIMARYKEY")) ==
                    ["Owner", "Q_Z_METADATA", "Q_sqlite_stat", "Q_z_primarykey", "Tag", "Z_Owner_tags"])
            #expect(try db.columns(in: "Q_Z_Owner_tags").map(\.name) == ["Z_SRC", "Z_DST", "Z_DST_ENT", "Z_ORD"])
        }
        let request = Quarry.FetchRequest(entityName: "Z_METADATA", predicate: try ObjectPredicate(format: "Z_PK != %@ AND z_ent >= 0", "pk0"),
                                   sortDescriptors: [SortKey("Z_PK")])
        let rows = try fetch(request, ["Z_PK", "z_ent", "Z_OPT", "Z_FOK_owner", "owner_ENT"], in: stack)
        #expect(rows == [[.string("pk1"), .integer(1), .double(0.5), .string("f1"), .string("e1")],
                         [.string("pk2"), .integer(0), .double(0), .string("f0"), .string("e0")]])
        // Reopened with its model (the layout recomputed) and without it (the copy in the file).
        let reopened = try PersistentStack(model: model, storeURL: url)
        #expect(try fetch(request, ["Z_PK"], in: reopened) == [[.string("pk1")], [.string("pk2")]])
        #expect(try fetch(Quarry.FetchRequest(entityName: "z_primarykey"), ["key"], in: reopened) == [[.string("k")]])
        let withoutModel = try SQLiteStore(url: url, model: nil)
        #expect(withoutModel.model == model)
        #expect(try withoutModel.keyedIDs(for: StoreQuery(entity: model.entity(named: "Z_METADATA")!), keyPaths: ["Z_PK"]).count == 3)
    }

    @Test func relationshipsThroughRenamedColumnsKeepTheirOrderAndDestinations() throws {
        let model = try collidingModel()
        let url = dir.file("clash.sqlite")
        let stack = try PersistentStack(model: model, storeURL: url)
        let context = stack.importerContext()
        try context.performAndWait {
            let owner = try context.insertObject(entityName: "SpecialOwner")
            owner["name"] = .string("o")
            let entries = try (0..<3).map { i -> ManagedObject in
                let entry = try context.insertObject(entityName: "Z_METADATA")
                entry["Z_PK"] = .string("e\(i)")
                entry["owner_ENT"] = .string("text \(i)")
                return entry
            }
            try owner.setObjects(entries.reversed(), forKey: "entries")
            let tag = try context.insertObject(entityName: "Tag")
            tag["label"] = .string("t")
            try owner.setObjects([tag], forKey: "tags")
            try context.save()
        }
        let reader = try PersistentStack(model: model, storeURL: url).importerContext()
        try reader.performAndWait {
            let owner = try #require(try reader.fetch(Quarry.FetchRequest(entityName: "Owner")).first)
            #expect(owner.entity.name == "SpecialOwner")
            #expect(try owner.objects(forKey: "tags").map { $0["label"] } == [.string("t")])
            let tagged = try reader.fetch(Quarry.FetchRequest(entityName: "Owner", predicate: try ObjectPredicate(format: "ANY tags.label == %@", "t")))
            #expect(tagged.count == 1)
            #expect(try owner.objects(forKey: "entries").map { $0["Z_PK"] } == [.string("e2"), .string("e1"), .string("e0")])
            let byOwner = try reader.fetch(Quarry.FetchRequest(entityName: "Z_METADATA", predicate: try ObjectPredicate(format: "owner.name == %@", "o"),
                                                        sortDescriptors: [SortKey("owner_ENT", ascending: false)]))
            #expect(byOwner.map { $0["owner_ENT"] } == [.string("text 2"), .string("text 1"), .string("text 0")])
            #expect(try byOwner.allSatisfy { try $0.object(forKey: "owner")?.entity.name == "SpecialOwner" })
        }
    }

    // MARK: Names that never clashed

    @Test func aModelWithoutClashesKeepsItsNaturalNames() throws {
        let model = try TestModels.tickers()
        let layout = StoreLayout(model: model)
        for (table, root) in zip(layout.tables, model.entities.filter { $0.index == $0.rootIndex }) {
            #expect(table.name == root.name)
        }
        for e in model.entities {
            for (i, a) in e.attributes.enumerated() where !a.isTransient {
                #expect(layout.attributeColumn(i, ofEntity: e.index) == a.name)
            }
            for (r, relationship) in e.relationships.enumerated() where !relationship.isToMany {
                #expect(layout.toOneKeyColumn(r, ofEntity: e.index) == relationship.name)
            }
        }
        #expect(layout.joinTables.map(\.name).sorted() == ["Z_Portfolio_holdings", "Z_Tag_tickers"])
    }
}

/// Stores an older Quarry made, when clashing sibling attributes still shared one column.
@Suite struct SQLiteOlderLayoutRepairTests {
    let dir = TemporaryDirectory()

    @Test func anOlderStoreGetsItsNewColumnsOnceOpenedForWritingAndIsRefusedReadOnly() throws {
        var builder = ModelBuilder()
        builder.entity("Item", abstract: true) { $0.attribute("title", .string) }
        builder.entity("Album", parent: "Item") { $0.attribute("code", .integer64) }
        builder.entity("Book", parent: "Item") { e in e.attribute("code", .string, indexed: true) }
        let model = try builder.build()
        let url = dir.file("older.sqlite")
        _ = try SQLiteStore(url: url, model: model)
        // The older layout: no Book_code; a book's code sat in the shared INTEGER column.
        let album = model.entity(named: "Album")!.index, book = model.entity(named: "Book")!.index
        try DatabaseQueue(path: url.path).write { db in
            for index in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '%Book_code%'") {
                try db.execute(sql: "DROP INDEX \(sqlIdentifier(index))")
            }
            try db.execute(sql: "ALTER TABLE Item DROP COLUMN Book_code")
            try db.execute(sql: "INSERT INTO Item (Z_PK, Z_ENT, Z_OPT, title, code) VALUES (1, \(album), 1, 'A', 7), (2, \(book), 1, 'B', '0123')")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 2")
        }
        #expect(throws: StoreError.cannotOpen(path: url.path, reason: "made by an older Quarry whose layout lacks Item.Book_code; open it once for writing to add them")) {
            try SQLiteStore(url: url, model: model, options: .init(readOnly: true))
        }
        let store = try SQLiteStore(url: url, model: model)
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "r"))
        let codes = try context.performAndWait {
            try context.fetch(Quarry.FetchRequest(entityName: "Item", sortDescriptors: [SortKey("title")])).map { try $0.value(forKey: "code") }
        }
        // What the shared INTEGER column kept of the string (the old data loss), now in its own column.
        #expect(codes == [.integer(7), .string("123")])
        let indexed = try DatabaseQueue(path: url.path).read { db in try db.indexes(on: "Item").contains { $0.columns == ["Book_code"] } }
        #expect(indexed)
        _ = try SQLiteStore(url: url, model: model, options: .init(readOnly: true))
    }
}
