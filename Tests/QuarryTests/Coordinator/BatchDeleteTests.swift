import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Batch deletes: objects deleted in one transaction without a context, every delete rule
/// applied from rows as a context applies it to objects, merged like a save.
@Suite("Batch delete")
struct BatchDeleteTests {
    @Test("cascade deletes the destinations transitively; nullify updates the survivors; the result merges like a save", arguments: StoreKind.allCases)
    func cascades(kind: StoreKind) throws {
        let f = try BatchRequestFixture(kind)
        let main = try f.store.context("main")
        let (controller, tag) = try main.performAndWait { () -> (FetchedResultsController, TickerTag) in
            let c = try FetchedResultsController(fetchRequest: FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")]), context: main)
            try c.performFetch()
            let tag = main.object(with: f.ids["tag"]!) as! TickerTag
            #expect(tag.tickers.count == 4)
            return (c, tag)
        }
        var request = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Sector", predicate: try ObjectPredicate(format: "name == 'energy'")))
        request.returnsObjectIDs = true
        let result = try f.writer.execute(request)
        #expect(result.count == 1 && result.objectIDs == [f.ids["energy"]!])
        // Sector → tickers (cascade) → quotes (cascade); the tag and the portfolio holding XOM
        // survive, and lose the deleted tickers.
        let gone: Set<ObjectID> = [f.ids["energy"]!, f.ids["XOM"]!, f.ids["CVX"]!, f.ids["Q-XOM"]!, f.ids["Q-CVX"]!]
        #expect(Set(result.changes.deleted) == gone)
        #expect(result.changes.updated == [f.ids["tag"]!], "the tag lost two members (nullify); the portfolio's holdings have no inverse")
        #expect(result.changes.changedKeys[f.ids["tag"]!] == ["tickers"])
        #expect(try f.count("Sector") == 1 && f.count("Ticker") == 2 && f.count("Quote") == 2 && f.count("Tag") == 1)
        let reader = try f.reader()
        try reader.performAndWait {
            let survivor = reader.object(with: f.ids["tag"]!) as! TickerTag
            #expect(Set(survivor.tickers.map(\.symbol)) == ["AAPL", "MSFT"], "the join-table rows went with the tickers")
        }
        try main.performAndWait {
            main.merge(fromDidSave: result.changes)
            #expect(controller.fetchedObjects.map { ($0 as! Ticker).symbol } == ["AAPL", "MSFT"])
            #expect(Set(tag.tickers.map(\.symbol)) == ["AAPL", "MSFT"], "the registered survivor is refreshed")
        }
    }

    @Test("deleting to-one holders updates the destination they leave; a list of IDs skips what is gone", arguments: StoreKind.allCases)
    func nullifies(kind: StoreKind) throws {
        let f = try BatchRequestFixture(kind)
        let result = try f.writer.execute(BatchDeleteRequest(objectIDs: [f.ids["XOM"]!, f.ids["XOM"]!, f.ids["AAPL"]!]))
        #expect(result.count == 2)
        #expect(Set(result.changes.deleted) == [f.ids["XOM"]!, f.ids["AAPL"]!, f.ids["Q-XOM"]!, f.ids["Q-AAPL"]!])
        #expect(Set(result.changes.updated) == [f.ids["tech"]!, f.ids["energy"]!, f.ids["tag"]!])
        #expect(result.changes.changedKeys[f.ids["energy"]!] == ["tickers"])
        let reader = try f.reader()
        try reader.performAndWait {
            #expect((reader.object(with: f.ids["energy"]!) as! Sector).tickers.map(\.symbol) == ["CVX"])
        }
        let again = try f.writer.execute(BatchDeleteRequest(objectIDs: [f.ids["XOM"]!]))
        #expect(again.count == 0 && again.changes.isEmpty, "an ID no longer in the store is skipped")
        #expect(throws: BatchRequestError.self) { try f.writer.execute(BatchDeleteRequest(objectIDs: [.temporary(entityIndex: 1)])) }
    }

    @Test("a deny rule refuses the whole request, naming the relationship and how many objects hold it", arguments: StoreKind.allCases)
    func denies(kind: StoreKind) throws {
        let f = try BatchRequestFixture(kind)
        let everyone = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Person"))
        #expect(throws: BatchRequestError.denied(entity: "Person", relationship: "portfolios", count: 1, sample: [f.ids["person"]!])) {
            try f.writer.execute(everyone)
        }
        do {
            try f.writer.execute(everyone)
        } catch {
            #expect("\(error)" == "delete denied: relationship 'Person.portfolios' (delete rule Deny) still holds objects, for 1 Person object(s) (primary key \(f.ids["person"]!.primaryKey)); nothing was deleted")
        }
        #expect(try f.count("Person") == 1 && f.count("Portfolio") == 1)
        // Deleting what it holds in the same request is allowed.
        let both = try f.writer.execute(BatchDeleteRequest(objectIDs: [f.ids["person"]!, f.ids["portfolio"]!]))
        #expect(both.count == 2)
        #expect(try f.count("Person") == 0 && f.count("Portfolio") == 0 && f.count("Ticker") == 4, "the holdings had no inverse: untouched")
    }

    @Test("a stack merges a batch change into its main context: its controller reports ordinary diffs, no re-fetch")
    func mergedByTheStack() async throws {
        let directory = TemporaryDirectory()
        var options = PersistentStack.Options()
        options.storeURL = directory.file("batch.sqlite")
        let stack = try PersistentStack(model: TestModels.tickers(), options: options)
        let importer = stack.importerContext()
        try importer.performAndWait {
            for (i, symbol) in ["A", "B", "C", "D"].enumerated() {
                let t = try importer.insert(Ticker.self)
                t.symbol = symbol; t.price = Double(i)
            }
            try importer.save()
        }
        let (controller, recorder) = try await MainActor.run { () -> (FetchedResultsController, DiffRecorder) in
            let c = try FetchedResultsController(fetchRequest: FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("price")]),
                                                 context: stack.mainContext)
            try c.performFetch()
            let r = DiffRecorder(c.snapshot)
            c.delegate = r
            return (c, r)
        }
        let updated = try await nextMerge(of: stack) {
            try stack.execute(try BatchUpdateRequest(entityName: "Ticker", predicate: ObjectPredicate(format: "symbol == 'A'"), setting: "price = 10"))
        }
        #expect(updated.updated.count == 1)
        let deleted = try await nextMerge(of: stack) {
            try stack.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "symbol == 'C'"))))
        }
        #expect(deleted.deleted.count == 1)
        try await MainActor.run {
            #expect(controller.fetchedObjects.map { ($0 as! Ticker).symbol } == ["B", "D", "A"])
            #expect(recorder.items == controller.snapshot.items && recorder.violations.isEmpty, "\(recorder.violations)")
            #expect(recorder.events == 2 && recorder.resets == 0, "two ordinary diffs, no reset")
        }
        // Not merged when the request says so: the next merge is the importer's save.
        var quiet = try BatchUpdateRequest(entityName: "Ticker", setting: "price = price + 100")
        quiet.mergesChanges = false
        let next = try await nextMerge(of: stack) {
            let result = try stack.execute(quiet)
            #expect(result.count == 3 && result.changes.updated.count == 3)
            try importer.performAndWait {
                let e = try importer.insert(Ticker.self)
                e.symbol = "E"
                try importer.save()
            }
        }
        #expect(next.inserted.count == 1 && next.updated.isEmpty, "the quiet request was not merged")
    }
}
