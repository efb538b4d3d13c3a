import Foundation
import GRDB
@testable import Quarry
import QuarryTestSupport

/// A store file written with one model and reopened with another, for migration tests.
struct MigrationFixture {
    let dir = TemporaryDirectory()
    var url: URL { dir.file("store.sqlite") }

    /// A model from JSON model text.
    static func model(_ json: String) throws -> ManagedObjectModel {
        try ManagedObjectModel(ModelDefinition(jsonText: json, path: "test.json"))
    }

    /// Creates the store with `model` and saves what `body` inserts.
    func create(_ model: ManagedObjectModel, _ body: (ObjectContext) throws -> Void) throws {
        try save(model, body)
    }

    /// Opens the store with `model` (migrating it unless `migrate` is false) and saves what `body` does.
    func save(_ model: ManagedObjectModel, migrate: Bool = true, _ body: (ObjectContext) throws -> Void) throws {
        let store = try SQLiteStore(url: url, model: model, options: .init(migratesAutomatically: migrate))
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "test"))
        try context.performAndWait {
            try body(context)
            try context.save()
        }
    }

    /// Every object of `entity` as a dictionary of `keys` (relationships as the destination's
    /// `label` value, to-many ones sorted and joined with commas), sorted by the first key.
    func rows(_ model: ManagedObjectModel, _ entity: String, _ keys: [String], label: String = "name") throws -> [[String: String]] {
        try Self.rows(in: try SQLiteStore(url: url, model: model), entity, keys, label: label)
    }

    /// Every object of `entity` in `store`, as ``rows(_:_:_:label:)`` shows them (for any store).
    static func rows(in store: some PersistentStore, _ entity: String, _ keys: [String], label: String = "name") throws -> [[String: String]] {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "read"))
        return try context.performAndWait {
            let objects = try context.fetch(FetchRequest(entityName: entity, sortDescriptors: [SortKey(keys[0])]))
            return try objects.map { object in
                var row: [String: String] = [:]
                for key in keys {
                    if object.entity.attribute(key) != nil {
                        row[key] = text(try object.value(forKey: key))
                    } else if let relationship = object.entity.relationship(key), relationship.isToMany {
                        row[key] = try object.objects(forKey: key).map { text(try $0.value(forKey: label)) }.sorted().joined(separator: ",")
                    } else {
                        row[key] = try object.object(forKey: key).map { text(try $0.value(forKey: label)) } ?? "nil"
                    }
                }
                return row
            }
        }
    }

    /// A value as the tests compare it: strings bare, everything else as described.
    static func text(_ value: Value) -> String {
        if case .string(let s) = value { return s }
        return value.description
    }

    /// Runs `body` on a plain read-only connection to the store.
    func inspect<T>(_ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: url.path, configuration: configuration).read(body)
    }

    /// The column names of `table`.
    func columns(_ table: String) throws -> [String] { try inspect { try $0.columns(in: table).map(\.name) } }
    /// Whether `table` exists.
    func exists(_ table: String) throws -> Bool { try inspect { try $0.tableExists(table) } }
    /// The integers `sql` selects.
    func integers(_ sql: String) throws -> [Int] { try inspect { try Int.fetchAll($0, sql: sql) } }
    /// The strings `sql` selects.
    func strings(_ sql: String) throws -> [String] { try inspect { try String.fetchAll($0, sql: sql) } }
    /// The indexes on `table`.
    func indexes(_ table: String) throws -> [IndexInfo] { try inspect { try $0.indexes(on: table) } }

    /// The store's logical content: its schema and every row of every table, in order. (Opening
    /// a store for writing may move pages around; a refused migration must change no content.)
    func content() throws -> [String] {
        try inspect { db in
            var lines = try String.fetchAll(db, sql: "SELECT type || ' ' || name || ': ' || COALESCE(sql, '') FROM sqlite_master ORDER BY type, name")
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                lines += try Row.fetchAll(db, sql: "SELECT * FROM \(sqlIdentifier(table)) ORDER BY 1, 2").map { "\(table): \($0)" }
            }
            return lines
        }
    }
}

extension ObjectContext {
    /// Inserts an object of `entity` with `values`.
    @discardableResult
    func make(_ entity: String, _ values: [String: Value]) throws -> ManagedObject {
        let object = try insertObject(entityName: entity)
        try object.setValues(values)
        return object
    }
}
