import Foundation
import Synchronization
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Each kind of change Core Data's inferred mapping handles, migrated on open.
@Suite struct LightweightMigrationTests {
    let fixture = MigrationFixture()
    static let items = """
        {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "count", "type": "Integer 16"}]}]}
        """

    private func seedItems() throws -> ManagedObjectModel {
        let v1 = try MigrationFixture.model(Self.items)
        try fixture.create(v1) { context in
            try context.make("Item", ["name": .string("a"), "count": .integer(1)])
            try context.make("Item", ["name": .string("b"), "count": .null])
        }
        return v1
    }

    @Test func addedAttributesAreAddedInPlaceWithTheirDefaults() throws {
        _ = try seedItems()
        let v2 = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "count", "type": "Integer 16"},
              {"name": "note", "type": "String"}, {"name": "rank", "type": "Integer 32", "optional": false, "default": 7}]}]}
            """)
        let plan = try #require(try SQLiteStore.migrationPlan(url: fixture.url, to: v2))
        #expect(plan.entities.map(\.strategy) == [.inPlace])
        #expect(plan.entities[0].rows == 2)
        #expect(plan.description.contains("+ rank: Integer 32, required, default 7"))
        try fixture.save(v2) { _ in }
        #expect(try fixture.rows(v2, "Item", ["name", "count", "note", "rank"]) == [
            ["name": "a", "count": "1", "note": "nil", "rank": "7"],
            ["name": "b", "count": "nil", "note": "nil", "rank": "7"],
        ])
        let metadata = try SQLiteStore.readMetadata(url: fixture.url)
        #expect(metadata.modelVersionHash == v2.versionHash)
    }

    @Test func withAutomaticMigrationOffTheStoreIsRefusedAndUntouched() throws {
        _ = try seedItems()
        let before = try fixture.content()
        let v2 = try MigrationFixture.model(Self.items.replacingOccurrences(of: "\"Integer 16\"}", with: "\"Integer 16\"}, {\"name\": \"x\", \"type\": \"Double\"}"))
        var options = PersistentStack.Options()
        options.storeURL = fixture.url
        options.automaticLightweightMigration = false
        #expect(throws: StoreError.modelMismatch(path: fixture.url.path, entities: ["Item"])) { try PersistentStack(model: v2, options: options) }
        #expect(try fixture.content() == before)
        options.automaticLightweightMigration = true
        _ = try PersistentStack(model: v2, options: options)
        #expect(try SQLiteStore.readMetadata(url: fixture.url).modelVersionHash == v2.versionHash)
    }

    @Test func removedAttributesAndEntitiesGoAndTheRestStays() throws {
        let v1 = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "old", "type": "String", "indexed": true}]},
                          {"name": "Gone", "attributes": [{"name": "x", "type": "String"}]}]}
            """)
        try fixture.create(v1) { context in
            try context.make("Item", ["name": .string("a"), "old": .string("o")])
            try context.make("Gone", ["x": .string("x")])
        }
        let v2 = try MigrationFixture.model(#"{"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}]}]}"#)
        let plan = try #require(try SQLiteStore.migrationPlan(url: fixture.url, to: v2))
        #expect(plan.entities.first { $0.name == "Gone" }?.kind == .removed)
        try fixture.save(v2) { _ in }
        #expect(try fixture.rows(v2, "Item", ["name"]) == [["name": "a"]])
        #expect(try !fixture.exists("Gone"))
        #expect(try fixture.columns("Item") == ["Z_PK", "Z_ENT", "Z_OPT", "name"])
        #expect(try fixture.strings("SELECT Z_ROOT FROM Z_PRIMARYKEY") == ["Item"])
    }

    /// Siblings declaring one name share a column; when one of them drops the attribute its
    /// values must go with it, or a later version re-adding the attribute would show them again.
    @Test func aSiblingDroppingASharedColumnsAttributeLosesItsValues() throws {
        func model(bHasNote: Bool) throws -> ManagedObjectModel {
            try MigrationFixture.model("""
                {"entities": [{"name": "P", "attributes": [{"name": "name", "type": "String"}]},
                              {"name": "A", "parent": "P", "attributes": [{"name": "note", "type": "String"}]},
                              {"name": "B", "parent": "P", "attributes": [\(bHasNote ? #"{"name": "note", "type": "String"}"# : "")]}]}
                """)
        }
        let v1 = try model(bHasNote: true), v2 = try model(bHasNote: false), v3 = try model(bHasNote: true)
        try fixture.create(v1) { context in
            try context.make("A", ["name": .string("a"), "note": .string("kept")])
            try context.make("B", ["name": .string("b"), "note": .string("dropped")])
        }
        try fixture.save(v2) { _ in }
        #expect(try fixture.rows(v2, "A", ["name", "note"]) == [["name": "a", "note": "kept"]])
        try fixture.save(v3) { _ in }
        #expect(try fixture.rows(v3, "A", ["name", "note"]) == [["name": "a", "note": "kept"]])
        #expect(try fixture.rows(v3, "B", ["name", "note"]) == [["name": "b", "note": "nil"]])
    }

    @Test func addedEntitiesRenumberEntityCodesAndKeepRelationships() throws {
        let v1 = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "tags", "destination": "Tag", "inverse": "items", "toMany": true}]},
                          {"name": "Tag", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "items", "destination": "Item", "inverse": "tags", "toMany": true}]}]}
            """)
        try fixture.create(v1) { context in
            let item = try context.make("Item", ["name": .string("i")])
            try item.add(try context.make("Tag", ["name": .string("t1")]), toKey: "tags")
            try item.add(try context.make("Tag", ["name": .string("t2")]), toKey: "tags")
        }
        // "Category" sorts first: every entity code moves up by one.
        var definition = v1.definition
        definition.entities.append(EntityDefinition(name: "Category", attributes: [AttributeDescription(name: "name", type: .string)]))
        let v2 = try ManagedObjectModel(definition)
        try fixture.save(v2) { context in try context.make("Category", ["name": .string("c")]) }
        #expect(try fixture.rows(v2, "Item", ["name", "tags"]) == [["name": "i", "tags": "t1,t2"]])
        #expect(try fixture.rows(v2, "Tag", ["name", "items"]) == [["name": "t1", "items": "i"], ["name": "t2", "items": "i"]])
        #expect(try fixture.rows(v2, "Category", ["name"]) == [["name": "c"]])
        #expect(try fixture.integers("SELECT DISTINCT Z_ENT FROM Item") == [1])
        #expect(try fixture.integers("SELECT DISTINCT Z_DST_ENT FROM Z_Item_tags") == [2])
    }

    @Test func optionalBecomingRequiredFillsWithTheDefaultOrIsRefusedByCount() throws {
        _ = try seedItems()
        let noDefault = try MigrationFixture.model(Self.items.replacingOccurrences(of: "\"Integer 16\"}", with: "\"Integer 16\", \"optional\": false}"))
        let before = try fixture.content()
        #expect(throws: MigrationError.missingValues(path: fixture.url.path, entity: "Item", attribute: "count", rows: 1)) {
            try fixture.save(noDefault) { _ in }
        }
        #expect(throws: MigrationError.missingValues(path: fixture.url.path, entity: "Item", attribute: "count", rows: 1)) {
            try SQLiteStore.migrationPlan(url: fixture.url, to: noDefault)
        }
        #expect(try fixture.content() == before)
        let withDefault = try MigrationFixture.model(Self.items.replacingOccurrences(of: "\"Integer 16\"}", with: "\"Integer 16\", \"optional\": false, \"default\": 5}"))
        try fixture.save(withDefault) { _ in }
        #expect(try fixture.rows(withDefault, "Item", ["name", "count"]) == [["name": "a", "count": "1"], ["name": "b", "count": "5"]])
        // And back: required → optional needs nothing.
        let v1 = try MigrationFixture.model(Self.items)
        try fixture.save(v1) { _ in }
        #expect(try fixture.rows(v1, "Item", ["name", "count"]) == [["name": "a", "count": "1"], ["name": "b", "count": "5"]])
    }

    @Test func requiredWithoutDefaultPassesWhenEveryRowHasAValue() throws {
        let v1 = try MigrationFixture.model(Self.items)
        try fixture.create(v1) { context in try context.make("Item", ["name": .string("a"), "count": .integer(3)]) }
        let v2 = try MigrationFixture.model(Self.items.replacingOccurrences(of: "\"Integer 16\"}", with: "\"Integer 16\", \"optional\": false}"))
        try fixture.save(v2) { _ in }
        #expect(try fixture.rows(v2, "Item", ["count"]) == [["count": "3"]])
    }

    @Test func renamesFollowRenamingIdentifiers() throws {
        let v1 = try MigrationFixture.model("""
            {"entities": [{"name": "Writer", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "works", "destination": "Book", "inverse": "writer", "toMany": true}]},
                          {"name": "Book", "attributes": [{"name": "title", "type": "String"}],
                           "relationships": [{"name": "writer", "destination": "Writer", "inverse": "works"}]}]}
            """)
        try fixture.create(v1) { context in
            let writer = try context.make("Writer", ["name": .string("Le Guin")])
            try context.make("Book", ["title": .string("Earthsea")]).setObject(writer, forKey: "writer")
        }
        let v2 = try MigrationFixture.model("""
            {"entities": [{"name": "Author", "renamingIdentifier": "Writer", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "books", "renamingIdentifier": "works", "destination": "Book", "inverse": "author", "toMany": true}]},
                          {"name": "Book", "attributes": [{"name": "name", "renamingIdentifier": "title", "type": "String"}],
                           "relationships": [{"name": "author", "renamingIdentifier": "writer", "destination": "Author", "inverse": "books"}]}]}
            """)
        let plan = try #require(try SQLiteStore.migrationPlan(url: fixture.url, to: v2))
        #expect(plan.entities.contains { $0.name == "Author" && $0.kind == .renamed(from: "Writer") })
        #expect(plan.description.contains("name: renamed from title"))
        try fixture.save(v2) { _ in }
        #expect(try fixture.rows(v2, "Book", ["name", "author"]) == [["name": "Earthsea", "author": "Le Guin"]])
        #expect(try fixture.rows(v2, "Author", ["name", "books"], label: "name") == [["name": "Le Guin", "books": "Earthsea"]])
    }

    @Test func toOneBecomesToManyAndBackWhenEachHoldsOne() throws {
        let v1 = try MigrationFixture.model("""
            {"entities": [{"name": "Person", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "car", "destination": "Car", "inverse": "owner"}]},
                          {"name": "Car", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "owner", "destination": "Person", "inverse": "car"}]}]}
            """)
        try fixture.create(v1) { context in
            let ann = try context.make("Person", ["name": .string("ann")])
            try context.make("Car", ["name": .string("fiat")]).setObject(ann, forKey: "owner")
            try context.make("Person", ["name": .string("bob")])
        }
        let v2 = try MigrationFixture.model("""
            {"entities": [{"name": "Person", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "cars", "renamingIdentifier": "car", "destination": "Car", "inverse": "owners", "toMany": true}]},
                          {"name": "Car", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "owners", "renamingIdentifier": "owner", "destination": "Person", "inverse": "cars", "toMany": true}]}]}
            """)
        try fixture.save(v2) { _ in }
        #expect(try fixture.rows(v2, "Person", ["name", "cars"]) == [["name": "ann", "cars": "fiat"], ["name": "bob", "cars": ""]])
        #expect(try fixture.rows(v2, "Car", ["name", "owners"]) == [["name": "fiat", "owners": "ann"]])
        // Back to to-one: fine while every person has at most one car.
        try fixture.save(v1) { _ in }
        #expect(try fixture.rows(v1, "Person", ["name", "car"]) == [["name": "ann", "car": "fiat"], ["name": "bob", "car": "nil"]])
        // A second car for ann: to-one is refused by count, and nothing changes.
        try fixture.save(v2) { context in
            let ann = try context.fetch(FetchRequest(entityName: "Person", predicate: try ObjectPredicate(format: "name == 'ann'")))[0]
            try ann.add(try context.make("Car", ["name": .string("saab")]), toKey: "cars")
        }
        let before = try fixture.content()
        #expect(throws: MigrationError.tooManyDestinations(path: fixture.url.path, entity: "Person", relationship: "car", objects: 1)) {
            try fixture.save(v1) { _ in }
        }
        #expect(try fixture.content() == before)
    }

    @Test func relationshipsAddedAndRemoved() throws {
        _ = try seedItems()
        let v2 = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "count", "type": "Integer 16"}],
                           "relationships": [{"name": "box", "destination": "Box", "inverse": "items"}]},
                          {"name": "Box", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "items", "destination": "Item", "inverse": "box", "toMany": true}]}]}
            """)
        try fixture.save(v2) { context in
            let box = try context.make("Box", ["name": .string("box")])
            for item in try context.fetch(FetchRequest(entityName: "Item")) { try item.setObject(box, forKey: "box") }
        }
        #expect(try fixture.rows(v2, "Box", ["name", "items"]) == [["name": "box", "items": "a,b"]])
        let v1 = try MigrationFixture.model(Self.items)
        try fixture.save(v1) { _ in }
        #expect(try fixture.rows(v1, "Item", ["name"]) == [["name": "a"], ["name": "b"]])
        #expect(try fixture.columns("Item") == ["Z_PK", "Z_ENT", "Z_OPT", "count", "name"])
    }

    @Test func inheritanceAddedMovesRowsWithNewKeysAndKeepsReferences() throws {
        let v1 = try MigrationFixture.model("""
            {"entities": [{"name": "Animal", "attributes": [{"name": "name", "type": "String"}]},
                          {"name": "Dog", "attributes": [{"name": "name", "type": "String"}, {"name": "breed", "type": "String"}],
                           "relationships": [{"name": "owner", "destination": "Owner", "inverse": "dogs"}]},
                          {"name": "Owner", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "dogs", "destination": "Dog", "inverse": "owner", "toMany": true}]}]}
            """)
        try fixture.create(v1) { context in
            try context.make("Animal", ["name": .string("cat")])
            let owner = try context.make("Owner", ["name": .string("ann")])
            try context.make("Dog", ["name": .string("rex"), "breed": .string("lab")]).setObject(owner, forKey: "owner")
            try context.make("Dog", ["name": .string("fido"), "breed": .string("pug")]).setObject(owner, forKey: "owner")
        }
        let v2 = try MigrationFixture.model("""
            {"entities": [{"name": "Animal", "attributes": [{"name": "name", "type": "String"}]},
                          {"name": "Dog", "parent": "Animal", "attributes": [{"name": "breed", "type": "String"}],
                           "relationships": [{"name": "owner", "destination": "Owner", "inverse": "dogs"}]},
                          {"name": "Owner", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "dogs", "destination": "Dog", "inverse": "owner", "toMany": true}]}]}
            """)
        let plan = try #require(try SQLiteStore.migrationPlan(url: fixture.url, to: v2))
        #expect(plan.entities.first { $0.name == "Dog" }?.strategy == .copy)
        try fixture.save(v2) { context in try context.make("Dog", ["name": .string("new"), "breed": .string("mutt")]) }
        #expect(try fixture.rows(v2, "Animal", ["name"]).map { $0["name"]! } == ["cat", "fido", "new", "rex"])
        #expect(try fixture.rows(v2, "Dog", ["name", "breed", "owner"]) == [
            ["name": "fido", "breed": "pug", "owner": "ann"], ["name": "new", "breed": "mutt", "owner": "nil"],
            ["name": "rex", "breed": "lab", "owner": "ann"],
        ])
        #expect(try fixture.rows(v2, "Owner", ["name", "dogs"]) == [["name": "ann", "dogs": "fido,rex"]])
        #expect(try !fixture.exists("Dog"))
        #expect(try fixture.integers("SELECT COUNT(DISTINCT Z_PK) FROM Animal") == [4])
        // And removed again: the dogs get their own table back.
        try fixture.save(v1) { _ in }
        #expect(try fixture.rows(v1, "Dog", ["name", "breed", "owner"]).map { $0["owner"]! } == ["ann", "nil", "ann"])
        #expect(try fixture.rows(v1, "Animal", ["name"]) == [["name": "cat"]])
    }

    @Test func uniquenessAndIndexesAddedOrRefusedNamingTheDuplicates() throws {
        let v1 = try MigrationFixture.model(Self.items)
        try fixture.create(v1) { context in
            for name in ["a", "b", "b", "c", "c", "c"] { try context.make("Item", ["name": .string(name)]) }
        }
        let unique = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "unique": [["name"]], "indexes": [{"name": "byCount", "attributes": ["count"]}],
                           "attributes": [{"name": "name", "type": "String"}, {"name": "count", "type": "Integer 16"}]}]}
            """)
        let before = try fixture.content()
        #expect(throws: MigrationError.duplicateRows(path: fixture.url.path, entity: "Item", attributes: ["name"], groups: 2,
                                                     examples: ["name = \"b\" (2 rows)", "name = \"c\" (3 rows)"])) {
            try fixture.save(unique) { _ in }
        }
        #expect(try fixture.content() == before)
        try fixture.save(v1) { context in
            for object in try context.fetch(FetchRequest(entityName: "Item")) {
                try object.setValue(.string(MigrationFixture.text(try object.value(forKey: "name")) + "\(object.objectID.primaryKey)"), forKey: "name")
            }
        }
        try fixture.save(unique) { _ in }
        #expect(try fixture.indexes("Item").contains { $0.isUnique && $0.columns == ["name"] })
        #expect(try fixture.indexes("Item").contains { $0.columns == ["count"] })
    }

    @Test func typeChangesThatKeepValuesAreMadeAndOthersRefusedByName() throws {
        let v1 = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "small", "type": "Integer 16"},
              {"name": "whole", "type": "Integer 32"}, {"name": "flag", "type": "Boolean"}, {"name": "when", "type": "Date"},
              {"name": "blob", "type": "Binary"}, {"name": "ratio", "type": "Double"}]}]}
            """)
        try fixture.create(v1) { context in
            try context.make("Item", ["name": .string("a"), "small": .integer(-7), "whole": .integer(3), "flag": .bool(true),
                                      "when": .date(Date(timeIntervalSince1970: 1_700_000_000)), "blob": .data(Data([1, 2, 3])),
                                      "ratio": .double(1.5)])
        }
        let refused = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "Integer 64"}, {"name": "small", "type": "Integer 16"},
              {"name": "whole", "type": "Integer 32"}, {"name": "flag", "type": "Boolean"}, {"name": "when", "type": "Date"},
              {"name": "blob", "type": "Binary"}, {"name": "ratio", "type": "Double"}]}]}
            """)
        #expect(throws: MigrationError.incompatibleType(path: fixture.url.path, entity: "Item", attribute: "name", from: .string, to: .integer64)) {
            try fixture.save(refused) { _ in }
        }
        let v2 = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "small", "type": "Integer 64"},
              {"name": "whole", "type": "Double"}, {"name": "flag", "type": "String"}, {"name": "when", "type": "String"},
              {"name": "blob", "type": "String"}, {"name": "ratio", "type": "String"}]}]}
            """)
        let plan = try #require(try SQLiteStore.migrationPlan(url: fixture.url, to: v2))
        #expect(plan.entities[0].strategy == .copy)
        #expect(plan.description.contains("whole: Integer 32 → Double"))
        try fixture.save(v2) { _ in }
        #expect(try fixture.rows(v2, "Item", ["name", "small", "whole", "flag", "when", "blob", "ratio"]) == [[
            "name": "a", "small": "-7", "whole": "3.0", "flag": "true", "when": "2023-11-14T22:13:20Z", "blob": "AQID", "ratio": "1.5",
        ]])
    }

    @Test func copiesReportProgressUpToTheirTotal() throws {
        let v1 = try MigrationFixture.model(Self.items)
        try fixture.create(v1) { context in
            for i in 0..<120 { try context.make("Item", ["name": .string("n\(i)"), "count": .integer(Int64(i))]) }
        }
        let v2 = try MigrationFixture.model(Self.items.replacingOccurrences(of: "\"Integer 16\"", with: "\"Double\""))
        let seen = Mutex<[MigrationProgress]>([])
        try SQLiteStore.migrate(url: fixture.url, to: v2) { progress in seen.withLock { $0.append(progress) } }
        let reports = seen.withLock { $0 }
        #expect(reports.last?.rowsCopied == 120)
        #expect(reports.allSatisfy { $0.rowsTotal == 120 && $0.table == "Item" })
        #expect(try fixture.rows(v2, "Item", ["count"]).count == 120)
    }

    @Test func planningWritesNothing() throws {
        _ = try seedItems()
        try DatabaseQueue(path: fixture.url.path).writeWithoutTransaction { _ = try $0.checkpoint(.truncate) }
        try? FileManager.default.removeItem(atPath: fixture.url.path + "-wal")
        try? FileManager.default.removeItem(atPath: fixture.url.path + "-shm")
        let before = try Data(contentsOf: fixture.url)
        let v2 = try MigrationFixture.model(Self.items.replacingOccurrences(of: "\"Integer 16\"", with: "\"Double\""))
        let plan = try #require(try SQLiteStore.migrationPlan(url: fixture.url, to: v2))
        #expect(plan.description.contains("Item: copied, 2 rows"))
        #expect(try Data(contentsOf: fixture.url) == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.url.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: fixture.url.path + "-shm"))
    }

    @Test func orderedToManyKeepsItsOrderInPlaceAndThroughACopy() throws {
        let json = """
            {"entities": [{"name": "List", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "entries", "destination": "Entry", "inverse": "list", "toMany": true, "ordered": true}]},
                          {"name": "Entry", "attributes": [{"name": "name", "type": "String"}, {"name": "rank", "type": "Integer 16"}],
                           "relationships": [{"name": "list", "destination": "List", "inverse": "entries"}]}]}
            """
        let v1 = try MigrationFixture.model(json)
        try fixture.create(v1) { context in
            let list = try context.make("List", ["name": .string("l")])
            for name in ["c", "a", "b"] { try list.add(try context.make("Entry", ["name": .string(name), "rank": .integer(1)]), toKey: "entries") }
        }
        func order(_ model: ManagedObjectModel) throws -> [String] {
            let store = try SQLiteStore(url: fixture.url, model: model)
            let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "read"))
            return try context.performAndWait {
                try context.fetch(FetchRequest(entityName: "List"))[0].objects(forKey: "entries").map { MigrationFixture.text(try $0.value(forKey: "name")) }
            }
        }
        let inPlace = try MigrationFixture.model(json.replacingOccurrences(of: #"{"name": "rank", "type": "Integer 16"}"#,
                                                                             with: #"{"name": "rank", "type": "Integer 16"}, {"name": "note", "type": "String"}"#))
        try fixture.save(inPlace) { _ in }
        #expect(try order(inPlace) == ["c", "a", "b"])
        let copied = try MigrationFixture.model(json.replacingOccurrences(of: #""rank", "type": "Integer 16""#, with: #""rank", "type": "Double""#))
        let plan = try #require(try SQLiteStore.migrationPlan(url: fixture.url, to: copied))
        #expect(plan.entities.first { $0.name == "Entry" }?.strategy == .copy)
        try fixture.save(copied) { _ in }
        #expect(try order(copied) == ["c", "a", "b"])
    }
}
