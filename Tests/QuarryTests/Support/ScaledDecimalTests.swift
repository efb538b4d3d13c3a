import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Issue 34, item 3: a decimal keeps the scale it was stored with (and a foreign column's
/// declared scale) through stores, imports and exports.
@Suite("Decimals keep their scale")
struct ScaledDecimalTests {
    static func price(_ text: String) -> Value { .decimal(ScaledDecimal(string: text)!) }

    @Test("the text a decimal is read from gives its scale", arguments: [
        ("12.50", "12.50"), ("15.00", "15.00"), ("-0.50", "-0.50"), ("0.00", "0.00"), ("7", "7"), ("1.250e1", "12.50"),
        ("0.000000000000000000000000000123", "0.000000000000000000000000000123"),
    ])
    func scaleFromText(_ text: String, _ shown: String) throws {
        let d = try #require(ScaledDecimal(string: text))
        #expect(d.description == shown)
        #expect(Value.decimal(d).exportText == shown)
    }

    @Test("a scale never cuts a digit; numbers compare as numbers")
    func scaleNeverCuts() {
        #expect(ScaledDecimal(Decimal(string: "1.234")!, scale: 2).description == "1.234")
        #expect(ScaledDecimal(Decimal(15), scale: 2).description == "15.00")
        #expect(Value.decimal(Decimal(string: "12.5")!) == .decimal(ScaledDecimal(string: "12.5")!))
        #expect(ValueOrdering.compare(Self.price("12.50"), Self.price("12.5")) == 0)
    }

    /// An entity of one decimal attribute in `store`, holding `12.50` and `15.00`.
    func saveAndReread(_ store: any PersistentStore) throws -> [String] {
        let coordinator = StoreCoordinator(store: store)
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            for text in ["12.50", "15.00"] {
                let item = try context.insertObject(entityName: "Item")
                try item.setValue(Self.price(text), forKey: "price")
            }
            try context.save()
        }
        let fresh = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        return try fresh.performAndWait {
            try fresh.fetch(FetchRequest(entityName: "Item", sortDescriptors: [SortKey("price")])).map { "\(try $0.value(forKey: "price"))" }
        }
    }

    static func model() throws -> ManagedObjectModel {
        var builder = ModelBuilder()
        builder.entity("Item") { e in e.attribute("price", .decimal) }
        return try builder.build()
    }

    @Test("a SQLite store and a JSON store give 12.50 and 15.00 back")
    func storesKeepTheScale() throws {
        let directory = TemporaryDirectory()
        let sqlite = try SQLiteStore(url: directory.file("items.sqlite"), model: Self.model())
        #expect(try saveAndReread(sqlite) == ["12.50", "15.00"])
        let url = directory.file("items.jsonstore")
        let json = try JSONStore(url: url, model: Self.model())
        #expect(try saveAndReread(json) == ["12.50", "15.00"])
        #expect(try JSONStoreTesting.contents(of: JSONStore(url: url)).values.sorted() == ["price=12.50", "price=15.00"])
    }

    @Test("an import of 12.50 and 15.00 exports as 12.50 and 15.00, in CSV and JSON")
    func importThenExport() async throws {
        let directory = TemporaryDirectory()
        var options = PersistentStack.Options()
        options.storeURL = directory.file("items.sqlite")
        let stack = try PersistentStack(model: Self.model(), options: options)
        let csv = directory.file("items.csv")
        try Data("price\n12.50\n15.00\n".utf8).write(to: csv)
        _ = try ImportOperation(stack: stack, entityName: "Item", fileURL: csv).run()
        let out = directory.file("out.csv"), lines = directory.file("out.jsonl")
        try await ExportOperation(stack: stack, entityName: "Item", sortDescriptors: [SortKey("price")], destination: .file(out),
                                  formatter: CSVFormatter()).run(on: OperationQueue())
        try await ExportOperation(stack: stack, entityName: "Item", sortDescriptors: [SortKey("price")], destination: .file(lines),
                                  formatter: JSONFormatter(layout: .lines)).run(on: OperationQueue())
        #expect(try String(contentsOf: out, encoding: .utf8) == "price\r\n12.50\r\n15.00\r\n")
        #expect(try String(contentsOf: lines, encoding: .utf8) == "{\"price\":12.50}\n{\"price\":15.00}\n")
    }

    @Test("a foreign NUMERIC(10,2) column shows its declared scale, and never rounds a digit away")
    func foreignDeclaredScale() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("shop.db")
        let queue = try DatabaseQueue(path: url.path)
        try queue.inDatabase { db in
            try db.execute(sql: """
                CREATE TABLE items (id INTEGER PRIMARY KEY, price NUMERIC(10,2), weight DECIMAL(8, 3));
                INSERT INTO items VALUES (1, '12.50', 1), (2, 15, 0.5), (3, 0.125, NULL);
                """)
        }
        try queue.close()
        let foreign = try ForeignDatabase.open(path: url.path)
        let store = try SQLiteStore(foreign: foreign)
        let entity = try #require(store.model.entity(named: "items"))
        #expect(entity.attribute("price")?.type == .decimal)
        let out = directory.file("out.csv")
        try await ExportOperation(coordinator: StoreCoordinator(store: store), entityName: "items", sortDescriptors: [SortKey("id")],
                                  destination: .file(out), formatter: CSVFormatter(columns: ["price", "weight"])).run(on: OperationQueue())
        #expect(try String(contentsOf: out, encoding: .utf8) == "price,weight\r\n12.50,1.000\r\n15.00,0.500\r\n0.125,\r\n")
    }
}
