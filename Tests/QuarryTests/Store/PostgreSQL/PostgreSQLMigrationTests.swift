import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// A PostgreSQL store in a schema of its own, written with one model and migrated to another.
final class PostgreSQLMigrationFixture {
    let schema: TemporaryPostgreSQLSchema
    var url: PostgreSQLStoreURL { schema.url }

    init(label: String = "mig") throws {
        schema = TemporaryPostgreSQLSchema(url: try PostgreSQLStoreURL(parsing: try #require(PostgreSQLTestServer.freshStoreURL(label: label))))
    }

    /// Opens the store with `model` (creating it the first time) and saves what `body` does.
    func save(_ model: ManagedObjectModel, _ body: (ObjectContext) throws -> Void) throws {
        let store = try PostgreSQLStore(url: url, model: model)
        defer { store.close() }
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "test"))
        try context.performAndWait {
            try body(context)
            try context.save()
        }
    }

    /// Every object of `entity`, as ``MigrationFixture/rows(in:_:_:label:)`` shows them.
    func rows(_ model: ManagedObjectModel, _ entity: String, _ keys: [String], label: String = "name") throws -> [[String: String]] {
        let store = try PostgreSQLStore(url: url, model: model)
        defer { store.close() }
        return try MigrationFixture.rows(in: store, entity, keys, label: label)
    }

    /// The values of `key` of the objects of `entity` matching `predicate`, in `sort`'s order.
    func fetch(_ model: ManagedObjectModel, _ entity: String, key: String, predicate: String?, sort: [SortKey]) throws -> [String] {
        let store = try PostgreSQLStore(url: url, model: model)
        defer { store.close() }
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "read"))
        return try context.performAndWait {
            let request = FetchRequest(entityName: entity, predicate: try predicate.map { try ObjectPredicate(format: $0) }, sortDescriptors: sort)
            return try context.fetch(request).map { MigrationFixture.text(try $0.value(forKey: key)) }
        }
    }

    /// The store's whole state: every table's columns and rows, every index, every sequence's
    /// position, in order (a refused or failed migration must change none of it).
    func content() throws -> [String] {
        let store = try PostgreSQLStore(url: url, model: nil)
        defer { store.close() }
        return try store.read { connection in
            let schema = PostgreSQLStore.bindings(url.schema)
            func texts(_ sql: String, _ binds: PGBindings = PGBindings()) throws -> [String] {
                try connection.query(sql, binds).map { try $0[0].decode(String.self) }
            }
            var lines = try texts("""
                SELECT table_name || '.' || column_name || ' ' || data_type FROM information_schema.columns \
                WHERE table_schema = $1 ORDER BY table_name, ordinal_position
                """, schema)
            lines += try texts("SELECT indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY indexdef", schema)
            for sequence in try texts("SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = $1 ORDER BY 1", schema) {
                lines += try texts("SELECT '\(sequence) ' || last_value || ' ' || is_called FROM \(PostgreSQLLayout.q(sequence))")
            }
            for table in try texts("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1", schema) {
                lines += try texts("SELECT '\(table) ' || row_to_json(t)::text FROM \(PostgreSQLLayout.q(table)) AS t ORDER BY 1")
            }
            return lines
        }
    }
}

@Suite("Migrating a PostgreSQL store", .serialized,
       .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLMigrationTests {
    static let items = """
        {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "count", "type": "Integer 32"},
                                                      {"name": "note", "type": "String"}]}]}
        """

    /// Names whose orders differ under binary, case-insensitive and standard comparison, and
    /// which `[c]`, `[d]` and `[cd]` match differently.
    static let names = ["émile", "Emile", "apple", "Zoë", "zoe", "item10", "item9", "Ärger", "bob"]

    func seedItems(_ fixture: PostgreSQLMigrationFixture) throws -> ManagedObjectModel {
        let v1 = try MigrationFixture.model(Self.items)
        try fixture.save(v1) { context in
            for (i, name) in Self.names.enumerated() {
                try context.make("Item", ["name": .string(name), "count": .integer(Int64(i * 7 - 20)), "note": .string("n\(i)")])
            }
        }
        return v1
    }

    @Test func attributesAddedRemovedRenamedAndConvertedKeepEveryRow() throws {
        let fixture = try PostgreSQLMigrationFixture()
        let v1 = try seedItems(fixture)
        let v2 = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "attributes": [{"name": "title", "renamingIdentifier": "name", "type": "String"},
              {"name": "count", "type": "String"}, {"name": "size", "type": "Integer 64", "optional": false, "default": 4},
              {"name": "label", "type": "String", "default": "Äb"}]}]}
            """)
        let plan = try #require(try PostgreSQLStore.migrationPlan(url: fixture.url, to: v2))
        #expect(plan.path == fixture.url.description)
        #expect(plan.description.contains("title: renamed from name"))
        #expect(plan.description.contains("count: Integer 32 → String"))
        #expect(plan.description.contains("+ size: Integer 64"))
        #expect(plan.description.contains("- note"))
        #expect(plan.entities.first { $0.name == "Item" }?.rows == Self.names.count)
        // The old model is refused until the store is migrated, as before.
        #expect(throws: StoreError.self) { _ = try PostgreSQLStore(url: fixture.url, model: v2) }
        try PostgreSQLStore.migrate(url: fixture.url, to: v2)
        #expect(try PostgreSQLStore.migrationPlan(url: fixture.url, to: v2) == nil)
        let expected = Self.names.enumerated().map { i, name in
            ["title": name, "count": String(i * 7 - 20), "size": "4", "label": "Äb"]
        }.sorted { $0["title"]! < $1["title"]! }
        #expect(try fixture.rows(v2, "Item", ["title", "count", "size", "label"]) == expected)
        #expect(throws: StoreError.self) { _ = try PostgreSQLStore(url: fixture.url, model: v1) }
        // New keys continue after the migrated rows'.
        try fixture.save(v2) { context in try context.make("Item", ["title": .string("new"), "count": .string("x")]) }
        #expect(try fixture.rows(v2, "Item", ["title"]).count == Self.names.count + 1)
    }

    @Test func typeConversionsWriteWhatTheSQLiteMigrationWrites() throws {
        let fixture = try PostgreSQLMigrationFixture()
        let v1 = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "small", "type": "Integer 16"},
              {"name": "whole", "type": "Integer 32"}, {"name": "flag", "type": "Boolean"}, {"name": "when", "type": "Date"},
              {"name": "blob", "type": "Binary"}, {"name": "ratio", "type": "Double"}, {"name": "round", "type": "Double"}]}]}
            """)
        try fixture.save(v1) { context in
            try context.make("Item", ["name": .string("a"), "small": .integer(-7), "whole": .integer(3), "flag": .bool(true),
                                      "when": .date(Date(timeIntervalSince1970: 1_700_000_000)), "blob": .data(Data([1, 2, 3])),
                                      "ratio": .double(1.5), "round": .double(2)])
        }
        let v2 = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "small", "type": "Integer 64"},
              {"name": "whole", "type": "Double"}, {"name": "flag", "type": "String"}, {"name": "when", "type": "String"},
              {"name": "blob", "type": "String"}, {"name": "ratio", "type": "String"}, {"name": "round", "type": "String"}]}]}
            """)
        try PostgreSQLStore.migrate(url: fixture.url, to: v2)
        #expect(try fixture.rows(v2, "Item", ["name", "small", "whole", "flag", "when", "blob", "ratio", "round"]) == [[
            "name": "a", "small": "-7", "whole": "3.0", "flag": "true", "when": "2023-11-14T22:13:20Z", "blob": "AQID", "ratio": "1.5",
            "round": "2.0",
        ]])
        // Converted strings match like strings a save wrote.
        #expect(try fixture.fetch(v2, "Item", key: "name", predicate: "flag ==[c] 'TRUE' AND blob ==[c] 'aqid'", sort: []) == ["a"])
    }

    @Test func aStoreOfTheFirstVersionMigratesThroughEachVersionInOneTransaction() throws {
        let fixture = try PostgreSQLMigrationFixture()
        // `title` (v1), `heading` renamed from `title` (v2), `caption` renamed from `heading`
        // (v3): only the steps keep the values.
        var versions: [ModelVersionHistory.Version] = []
        for (name, attribute, renamed) in [("Notes", "title", nil), ("Notes 2", "heading", "title"), ("Notes 3", "caption", "heading")] {
            let renaming = renamed.map { #", "renamingIdentifier": "\#($0)""# } ?? ""
            versions.append(.init(name: name, model: try MigrationFixture.model("""
                {"entities": [{"name": "Note", "attributes": [{"name": "\(attribute)", "type": "String"\(renaming)}, {"name": "stars", "type": "Integer 16"}]}]}
                """)))
        }
        let history = ModelVersionHistory(versions: versions)
        try fixture.save(versions[0].model) { context in try context.make("Note", ["title": .string("Hello"), "stars": .integer(3)]) }
        let plan = try #require(try PostgreSQLStore.migrationPlan(url: fixture.url, to: history.current, versions: history))
        #expect(plan.steps.map(\.destinationVersion) == ["Notes 2", "Notes 3"])
        try PostgreSQLStore.migrate(url: fixture.url, to: history.current, versions: history)
        #expect(try fixture.rows(history.current, "Note", ["caption", "stars"]) == [["caption": "Hello", "stars": "3"]])
        #expect(try fixture.fetch(history.current, "Note", key: "caption", predicate: "caption ==[c] 'hello'", sort: []) == ["Hello"])
    }

    @Test func sortsAndPredicatesAfterMigrationMatchAFreshStoreHoldingTheSameObjects() throws {
        let fixture = try PostgreSQLMigrationFixture()
        _ = try seedItems(fixture)
        let v2 = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "attributes": [{"name": "title", "renamingIdentifier": "name", "type": "String"},
              {"name": "count", "type": "String"}, {"name": "note", "type": "String"}, {"name": "label", "type": "String", "default": "Äb"}]}]}
            """)
        try PostgreSQLStore.migrate(url: fixture.url, to: v2)
        let fresh = try PostgreSQLMigrationFixture(label: "fresh")
        try fresh.save(v2) { context in
            for (i, name) in Self.names.enumerated() {
                try context.make("Item", ["title": .string(name), "count": .string(String(i * 7 - 20)), "note": .string("n\(i)"), "label": .string("Äb")])
            }
        }
        let queries: [(predicate: String?, sort: [SortKey])] = [
            (nil, [SortKey("title")]),
            (nil, [SortKey("title", comparison: .caseInsensitive), SortKey("count")]),
            (nil, [SortKey("title", comparison: .localizedStandard)]),
            (nil, [SortKey("count", comparison: .localizedStandard)]),
            ("title BEGINSWITH[cd] 'e'", [SortKey("title")]),
            ("title ==[c] 'emile'", [SortKey("title")]),
            ("title CONTAINS[d] 'o'", [SortKey("title", ascending: false)]),
            ("count BEGINSWITH[c] '-'", [SortKey("count", comparison: .localizedStandard)]),
            ("label ==[cd] 'ab'", [SortKey("title", comparison: .localizedStandard)]),
        ]
        for query in queries {
            let migrated = try fixture.fetch(v2, "Item", key: "title", predicate: query.predicate, sort: query.sort)
            let expected = try fresh.fetch(v2, "Item", key: "title", predicate: query.predicate, sort: query.sort)
            #expect(migrated == expected, "\(query.predicate ?? "all") sorted by \(query.sort)")
            #expect(!expected.isEmpty)
        }
    }

    @Test func entityRenamedAndToManyAddedKeepRowsAndRelationships() throws {
        let fixture = try PostgreSQLMigrationFixture()
        let v1 = try MigrationFixture.model("""
            {"entities": [{"name": "Writer", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "works", "destination": "Book", "inverse": "writer", "toMany": true}]},
                          {"name": "Book", "attributes": [{"name": "title", "type": "String"}],
                           "relationships": [{"name": "writer", "destination": "Writer", "inverse": "works"}]}]}
            """)
        try fixture.save(v1) { context in
            let writer = try context.make("Writer", ["name": .string("Le Guin")])
            try context.make("Book", ["title": .string("Earthsea")]).setObject(writer, forKey: "writer")
            try context.make("Book", ["title": .string("Lathe")]).setObject(writer, forKey: "writer")
            try context.make("Writer", ["name": .string("Banks")])
        }
        let v2 = try MigrationFixture.model("""
            {"entities": [{"name": "Author", "renamingIdentifier": "Writer", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "books", "renamingIdentifier": "works", "destination": "Book", "inverse": "author", "toMany": true},
                                             {"name": "tags", "destination": "Tag", "inverse": "authors", "toMany": true}]},
                          {"name": "Book", "attributes": [{"name": "name", "renamingIdentifier": "title", "type": "String"}],
                           "relationships": [{"name": "author", "renamingIdentifier": "writer", "destination": "Author", "inverse": "books"}]},
                          {"name": "Tag", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "authors", "destination": "Author", "inverse": "tags", "toMany": true}]}]}
            """)
        let plan = try #require(try PostgreSQLStore.migrationPlan(url: fixture.url, to: v2))
        #expect(plan.entities.contains { $0.name == "Author" && $0.kind == .renamed(from: "Writer") })
        #expect(plan.entities.contains { $0.name == "Tag" && $0.kind == .added })
        try PostgreSQLStore.migrate(url: fixture.url, to: v2)
        #expect(try fixture.rows(v2, "Book", ["name", "author"]) == [["name": "Earthsea", "author": "Le Guin"], ["name": "Lathe", "author": "Le Guin"]])
        #expect(try fixture.rows(v2, "Author", ["name", "books"]) == [["name": "Banks", "books": ""], ["name": "Le Guin", "books": "Earthsea,Lathe"]])
        // The new to-many works: its join table exists and keys go on from the old ones.
        try fixture.save(v2) { context in
            let tag = try context.make("Tag", ["name": .string("sf")])
            for author in try context.fetch(FetchRequest(entityName: "Author")) { try author.add(tag, toKey: "tags") }
            try context.make("Author", ["name": .string("Jemisin")])
        }
        #expect(try fixture.rows(v2, "Author", ["name", "tags"]) == [
            ["name": "Banks", "tags": "sf"], ["name": "Jemisin", "tags": ""], ["name": "Le Guin", "tags": "sf"]])
        #expect(try fixture.rows(v2, "Tag", ["name", "authors"]) == [["name": "sf", "authors": "Banks,Le Guin"]])
    }

    @Test func aMigrationFailingMidwayLeavesTheStoreExactlyAsItWas() throws {
        let fixture = try PostgreSQLMigrationFixture()
        let v1 = try MigrationFixture.model("""
            {"entities": [{"name": "Person", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "cars", "destination": "Car", "inverse": "owner", "toMany": true}]},
                          {"name": "Car", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "owner", "destination": "Person", "inverse": "cars"}]}]}
            """)
        try fixture.save(v1) { context in
            let ann = try context.make("Person", ["name": .string("ann")])
            for car in ["fiat", "saab"] { try context.make("Car", ["name": .string(car)]).setObject(ann, forKey: "owner") }
        }
        // A to-many becoming to-one fails only once the tables are rebuilt: ann has two cars.
        let v2 = try MigrationFixture.model("""
            {"entities": [{"name": "Person", "attributes": [{"name": "name", "type": "String"}, {"name": "age", "type": "Integer 16", "default": 1}],
                           "relationships": [{"name": "car", "renamingIdentifier": "cars", "destination": "Car", "inverse": "owners"}]},
                          {"name": "Car", "attributes": [{"name": "label", "renamingIdentifier": "name", "type": "String"}],
                           "relationships": [{"name": "owners", "renamingIdentifier": "owner", "destination": "Person", "inverse": "car", "toMany": true}]}]}
            """)
        let before = try fixture.content()
        #expect(throws: MigrationError.tooManyDestinations(path: fixture.url.description, entity: "Person", relationship: "car", objects: 1)) {
            try PostgreSQLStore.migrate(url: fixture.url, to: v2)
        }
        #expect(try fixture.content() == before)
        #expect(try fixture.rows(v1, "Person", ["name", "cars"]) == [["name": "ann", "cars": "fiat,saab"]])
    }

    @Test func planningAndRefusedMigrationsWriteNothing() throws {
        let fixture = try PostgreSQLMigrationFixture()
        _ = try seedItems(fixture)
        let before = try fixture.content()
        let v2 = try MigrationFixture.model(Self.items.replacingOccurrences(of: "\"Integer 32\"}", with: "\"Integer 64\"}, {\"name\": \"extra\", \"type\": \"Double\"}"))
        #expect(try PostgreSQLStore.migrationPlan(url: fixture.url, to: v2) != nil)
        let refused = try MigrationFixture.model(Self.items.replacingOccurrences(of: "\"name\", \"type\": \"String\"", with: "\"name\", \"type\": \"Integer 64\""))
        #expect(throws: MigrationError.incompatibleType(path: fixture.url.description, entity: "Item", attribute: "name", from: .string, to: .integer64)) {
            try PostgreSQLStore.migrate(url: fixture.url, to: refused)
        }
        let required = try MigrationFixture.model("""
            {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "count", "type": "Integer 32"},
              {"name": "note", "type": "String"}, {"name": "must", "type": "String", "optional": false}]}]}
            """)
        #expect(throws: MigrationError.missingValues(path: fixture.url.description, entity: "Item", attribute: "must", rows: Self.names.count)) {
            try PostgreSQLStore.migrate(url: fixture.url, to: required)
        }
        #expect(try fixture.content() == before)
    }
}
