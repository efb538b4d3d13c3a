import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Batch insert with ``BatchInsertConflictPolicy/update``: rows whose uniqueness key exists
/// update the object holding it, on every back end.
@Suite("Batch insert upsert")
struct BatchInsertUpsertTests {
    /// `Item` (sku unique; vendor + code unique together) on a `Shelf`.
    static func model() throws -> ManagedObjectModel {
        var b = ModelBuilder()
        b.entity("Shelf") { e in
            e.attribute("name", .string, optional: false)
            e.toMany("items", destination: "Item", inverse: "shelf")
        }
        b.entity("Item") { e in
            e.attribute("sku", .string, optional: false)
            e.attribute("vendor", .string)
            e.attribute("code", .integer64)
            e.attribute("title", .string)
            e.attribute("price", .double, default: .double(0))
            e.attribute("stock", .integer64, default: .integer(7))
            e.toOne("shelf", destination: "Shelf", inverse: "items")
            e.unique("sku")
            e.unique("vendor", "code")
        }
        return try b.build()
    }

    /// Every item as `sku title price stock vendor/code shelf`, by sku.
    static func items(_ store: TestStore) throws -> [String] {
        let context = try store.context("reader")
        return try context.performAndWait {
            try context.fetch(FetchRequest(entityName: "Item", sortDescriptors: [SortKey("sku")])).map { o in
                "\(o["sku"] as Value) \(o["title"] as Value) \(o["price"] as Value) \(o["stock"] as Value) \(o["vendor"] as Value)/\(o["code"] as Value) \(o.toOne[0].map { _ in "shelved" } ?? "-")"
            }
        }
    }

    /// Two saved items: A (acme/1, stock 5, on a shelf) and B (no vendor).
    static func seed(_ store: TestStore) throws -> ObjectID {
        let context = try store.context("seed")
        return try context.performAndWait {
            let shelf = try context.insertObject(entityName: "Shelf")
            try shelf.setValue(.string("top"), forKey: "name")
            for (sku, vendor, code) in [("A", Value.string("acme"), Value.integer(1)), ("B", .null, .null)] {
                let item = try context.insertObject(entityName: "Item")
                try item.setValue(.string(sku), forKey: "sku")
                try item.setValue(vendor, forKey: "vendor")
                try item.setValue(code, forKey: "code")
                try item.setValue(.string("old \(sku)"), forKey: "title")
                try item.setValue(.integer(5), forKey: "stock")
                if sku == "A" { try item.setObject(shelf, forKey: "shelf") }
            }
            try context.save()
            return shelf.objectID
        }
    }

    @Test("existing keys update (given properties only), new keys insert, duplicates fold, on every back end", arguments: StoreKind.allCases)
    func upserts(kind: StoreKind) throws {
        let store = TestStore(kind, model: try Self.model())
        _ = try Self.seed(store)
        var request = BatchInsertRequest(entityName: "Item", attributes: ["sku", "vendor", "code", "title", "price"])
        request.uniquenessConflicts = .update
        request.append([.string("A"), .string("acme"), .integer(1), .string("new A"), .double(2)])   // updates A by sku
        request.append([.string("C"), .string("zeta"), .integer(9), .string("C"), .double(3)])       // new
        request.append([.string("C"), .string("zeta"), .integer(9), .string("C again"), .double(4)]) // folds into the row above
        request.append([.string("B"), .null, .null, .string("new B"), .double(1)])                   // updates B by sku (nil keys never match)
        let result = try store.coordinator("writer").execute(request)
        #expect(result.count == 3)
        #expect(result.changes.inserted.count == 1 && result.changes.updated.count == 2)
        #expect(try Self.items(store) == [
            "'A' 'new A' 2.0 5 'acme'/1 shelved",     // stock and shelf kept
            "'B' 'new B' 1.0 5 nil/nil -",
            "'C' 'C again' 4.0 7 'zeta'/9 -",          // the later row won; stock from the default
        ])
    }

    @Test("a row matching by the two-attribute key updates that object; keys naming two objects refuse the request")
    func compositeKeys() throws {
        let store = TestStore(.sqlite, model: try Self.model())
        _ = try Self.seed(store)
        var request = BatchInsertRequest(entityName: "Item", attributes: ["sku", "vendor", "code", "title"])
        request.uniquenessConflicts = .update
        request.append([.string("A2"), .string("acme"), .integer(1), .string("renamed")])   // vendor/code of A: A's sku changes
        try store.coordinator("writer").batchInsert(request)
        #expect(try Self.items(store) == ["'A2' 'renamed' 0.0 5 'acme'/1 shelved", "'B' 'old B' 0.0 5 nil/nil -"])
        var clash = BatchInsertRequest(entityName: "Item", attributes: ["sku", "vendor", "code"])
        clash.uniquenessConflicts = .update
        clash.append([.string("B"), .string("acme"), .integer(1)])   // sku of B, vendor/code of A2
        let before = try Self.items(store)
        let error = #expect(throws: BatchInsertError.self) { try store.coordinator("writer").batchInsert(clash) }
        #expect("\(error!)".contains("matches two existing objects"), "\(error!)")
        #expect(try Self.items(store) == before, "a refused request changes nothing")
    }

    @Test("without the update policy a taken key refuses the whole request")
    func failsByDefault() throws {
        let store = TestStore(.sqlite, model: try Self.model())
        _ = try Self.seed(store)
        var request = BatchInsertRequest(entityName: "Item", attributes: ["sku"])
        request.append([.string("Z")])
        request.append([.string("A")])
        let before = try Self.items(store)
        #expect(throws: StoreError.self) { try store.coordinator("writer").batchInsert(request) }
        #expect(try Self.items(store) == before)
    }

    @Test("through the stack, an upsert reaches a live controller as an ordinary diff")
    func mergedThroughStack() async throws {
        let directory = TemporaryDirectory()
        var options = PersistentStack.Options()
        options.storeURL = directory.file("upsert.sqlite")
        let stack = try PersistentStack(model: try Self.model(), options: options)
        let importer = stack.importerContext()
        try importer.performAndWait {
            for sku in ["A", "B"] {
                let item = try importer.insertObject(entityName: "Item")
                try item.setValue(.string(sku), forKey: "sku")
                try item.setValue(.double(1), forKey: "price")
            }
            try importer.save()
        }
        let (controller, recorder) = try await MainActor.run { () -> (FetchedResultsController, DiffRecorder) in
            let c = try FetchedResultsController(fetchRequest: FetchRequest(entityName: "Item", sortDescriptors: [SortKey("price"), SortKey("sku")]),
                                                 context: stack.mainContext)
            try c.performFetch()
            let r = DiffRecorder(c.snapshot)
            c.delegate = r
            return (c, r)
        }
        var request = BatchInsertRequest(entityName: "Item", attributes: ["sku", "price"])
        request.uniquenessConflicts = .update
        request.append([.string("A"), .double(9)])
        request.append([.string("C"), .double(5)])
        _ = try await nextMerge(of: stack) { try stack.execute(request) }
        try await MainActor.run {
            let skus = try controller.fetchedObjects.map { try $0.value(forKey: "sku") }
            #expect(skus == [.string("B"), .string("C"), .string("A")])
            #expect(recorder.items == controller.snapshot.items && recorder.violations.isEmpty && recorder.resets == 0)
        }
    }
}
