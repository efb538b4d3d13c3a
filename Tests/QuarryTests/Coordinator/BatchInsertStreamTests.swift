import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Batch insert with rows from a sequence (Core Data's dictionary handler): written a run at a
/// time in one transaction, on every back end.
@Suite("Batch insert from a sequence")
struct BatchInsertStreamTests {
    static let total = 12_345

    /// Ticker `i`: symbol `S<i>`, price `i % 500`, in the sector given.
    static func row(_ i: Int, sector: ObjectID) -> BatchInsertRow {
        BatchInsertRow([.string("S\(i)"), .double(Double(i % 500))], destinations: [sector])
    }

    static func sector(_ store: TestStore) throws -> ObjectID {
        let context = try store.context("seed")
        return try context.performAndWait {
            let sector = try context.insert(Sector.self)
            sector.name = "tech"
            try context.save()
            return sector.objectID
        }
    }

    @Test("rows from a lazy sequence: every row stored once, IDs in row order, one history transaction", arguments: StoreKind.allCases)
    func streamedRows(kind: StoreKind) throws {
        let store = TestStore(kind)
        let sector = try Self.sector(store)
        let coordinator = try store.coordinator("writer")
        var request = BatchInsertRequest(entityName: "Ticker", attributes: ["symbol", "price"], relationships: ["sector"])
        request.append([.string("FIRST"), .double(1)], destinations: [sector])
        request.author = "loader"
        var handedOut = 0
        let rows = (0..<Self.total).lazy.map { i -> BatchInsertRow in
            handedOut += 1
            return Self.row(i, sector: sector)
        }
        let result = try coordinator.execute(request, rows: rows)
        #expect(handedOut == Self.total)
        #expect(result.count == Self.total + 1)
        #expect(result.objectIDs?.count == Self.total + 1)
        #expect(Set(result.objectIDs ?? []).count == Self.total + 1)
        if kind == .sqlite || kind == .postgreSQL {
            // Written run by run: the states were never all kept.
            #expect(result.changes.insertedSnapshots.isEmpty)
        }
        let stored = try coordinator.store.snapshots(for: result.objectIDs ?? [])
        let entity = store.model.entity(named: "Ticker")!
        let symbol = entity.attributeIndex("symbol")!, price = entity.attributeIndex("price")!
        let sectorIndex = entity.relationshipIndex("sector")!
        let ids = result.objectIDs ?? []
        #expect(stored[ids[0]]?.values[symbol] == .string("FIRST"))
        for (i, id) in ids.dropFirst().enumerated() where i % 997 == 0 || i == Self.total - 1 {
            #expect(stored[id]?.values[symbol] == .string("S\(i)"), "row \(i)")
            #expect(stored[id]?.values[price] == .double(Double(i % 500)), "row \(i)")
            #expect(stored[id]?.toOne[sectorIndex] == sector, "row \(i)")
        }
        #expect(try coordinator.store.count(for: StoreQuery(entity: entity, includesSubentities: true, predicate: nil)) == Self.total + 1)
        // The sector's to-many sees them through the same key.
        #expect(try coordinator.store.relatedIDs(of: sector, relationship: store.model.entity(named: "Sector")!.relationshipIndex("tickers")!).count == Self.total + 1)
        if let history = coordinator.store as? PersistentHistoryStore {
            let transactions = try history.history(after: nil, limit: nil).transactions
            let last = try #require(transactions.last)
            #expect(last.author == "loader")
            #expect(last.changes.filter { $0.type == .insert }.count == Self.total + 1)
        }
    }

    @Test("a bad row in a later run: refused naming it, nothing written", arguments: StoreKind.allCases)
    func badRowRollsBack(kind: StoreKind) throws {
        let store = TestStore(kind)
        let sector = try Self.sector(store)
        let coordinator = try store.coordinator("writer")
        let tokenBefore = try (coordinator.store as? PersistentHistoryStore)?.currentHistoryToken()
        let request = BatchInsertRequest(entityName: "Ticker", attributes: ["symbol", "price"], relationships: ["sector"])
        let rows = (0..<Self.total).lazy.map { i in
            i == 7_001 ? BatchInsertRow([.string("S\(i)"), .string("not a price")], destinations: [sector]) : Self.row(i, sector: sector)
        }
        #expect(throws: BatchInsertError.invalidValue(entity: "Ticker", row: 7_001, key: "price", reason: "'not a price' is not a valid double")) {
            try coordinator.execute(request, rows: rows)
        }
        let entity = store.model.entity(named: "Ticker")!
        #expect(try coordinator.store.count(for: StoreQuery(entity: entity, includesSubentities: true, predicate: nil)) == 0)
        #expect(try (coordinator.store as? PersistentHistoryStore)?.currentHistoryToken() == tokenBefore)
    }

    @Test("a taken unique key in a later run rolls the whole insert back", arguments: StoreKind.allCases)
    func uniquenessRollsBack(kind: StoreKind) throws {
        let store = TestStore(kind, model: try BatchInsertUpsertTests.model())
        let coordinator = try store.coordinator("writer")
        let request = BatchInsertRequest(entityName: "Item", attributes: ["sku"])
        let rows = (0..<8_000).lazy.map { i in BatchInsertRow([.string(i == 6_000 ? "K3" : "K\(i)")]) }
        #expect(throws: StoreError.self) { try coordinator.execute(request, rows: rows) }
        let entity = store.model.entity(named: "Item")!
        #expect(try coordinator.store.count(for: StoreQuery(entity: entity, includesSubentities: true, predicate: nil)) == 0)
    }

    @Test("an upsert needs every row's key at once: refused for a sequence, naming the entity")
    func upsertRefused() throws {
        let store = TestStore(.sqlite, model: try BatchInsertUpsertTests.model())
        var request = BatchInsertRequest(entityName: "Item", attributes: ["sku"])
        request.uniquenessConflicts = .update
        #expect(throws: BatchInsertError.upsertNeedsAllRows(entity: "Item")) {
            try store.coordinator("writer").execute(request, rows: [BatchInsertRow([.string("A")])])
        }
        #expect(BatchInsertError.upsertNeedsAllRows(entity: "Item").description.contains("'Item'"))
    }

    @Test("merged into a stack's main context: its live controller inserts the new rows, no re-fetch")
    func mergedIntoMainContext() async throws {
        let directory = TemporaryDirectory()
        var options = PersistentStack.Options()
        options.storeURL = directory.file("stream.sqlite")
        let model = TestModels.tickers()
        model.registerTickerClasses()
        let stack = try PersistentStack(model: model, options: options)
        let (controller, recorder) = try await MainActor.run { () -> (FetchedResultsController, DiffRecorder) in
            let c = try FetchedResultsController(fetchRequest: FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")]),
                                                 context: stack.mainContext)
            try c.performFetch()
            let r = DiffRecorder(c.snapshot)
            c.delegate = r
            return (c, r)
        }
        let request = BatchInsertRequest(entityName: "Ticker", attributes: ["symbol"])
        let merged = try await nextMerge(of: stack) {
            try stack.execute(request, rows: (0..<2_500).lazy.map { BatchInsertRow([.string(String(format: "T%05d", 2_499 - $0))]) })
        }
        #expect(merged.inserted.count == 2_500)
        try await MainActor.run {
            let symbols = controller.fetchedObjects.map { ($0 as! Ticker).symbol }
            #expect(symbols.count == 2_500 && symbols.first == "T00000" && symbols.last == "T02499")
            #expect(recorder.items == controller.snapshot.items && recorder.violations.isEmpty, "\(recorder.violations)")
            #expect(recorder.events == 1 && recorder.resets == 0, "one ordinary diff, no reset")
        }
    }
}
