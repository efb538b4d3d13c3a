import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Batch inserts: rows straight into the store, checked against the model first.
@Suite("Batch insert")
struct BatchInsertTests {
    func sector(_ context: ObjectContext, _ name: String) throws -> ObjectID {
        try context.performAndWait {
            let s = try context.insert(Sector.self)
            s.name = name
            try context.save()
            return s.objectID
        }
    }

    @Test("rows reach the store with defaults, to-ones and complete inverses; the result merges like a save", arguments: StoreKind.allCases)
    func inserts(kind: StoreKind) throws {
        let store = TestStore(kind)
        store.model.register(Ticker.self, for: "Ticker")    // nothing typed has bound it yet
        let main = try store.context("main")
        let tech = try sector(main, "tech")
        let request = FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")])
        let controller = try main.performAndWait { () -> FetchedResultsController in
            let c = try FetchedResultsController(fetchRequest: request, context: main)
            try c.performFetch()
            return c
        }
        var rows = BatchInsertRequest(entityName: "Ticker", attributes: ["symbol", "price"], relationships: ["sector"])
        rows.append([.string("B"), .integer(2)], destinations: [tech])     // an integer is a valid double
        rows.append([.string("A"), .double(1.5)], destinations: [nil])
        let coordinator = try store.coordinator("writer")
        let saved = try coordinator.batchInsert(rows)
        #expect(saved.inserted.count == 2 && saved.carriesSnapshots)
        #expect(saved.inserted.allSatisfy { !$0.isTemporary })

        try main.performAndWait {
            main.merge(fromDidSave: saved)
            #expect(controller.fetchedObjects.map { ($0 as? Ticker)?.symbol } == ["A", "B"])
            let b = main.object(with: saved.inserted[0]) as! Ticker
            #expect(b.price == 2 && b.volume == 0 && b.active == true, "given values, and the model's defaults")
            #expect(b.sector?.objectID == tech)
            let s = main.object(with: tech) as! Sector
            #expect(s.tickers.map(\.objectID) == [saved.inserted[0]], "the inverse to-many is complete")
            #expect((main.object(with: saved.inserted[1]) as! Ticker).sector == nil)
        }
    }

    @Test("bad rows are refused with the row and key at fault, and nothing is written", arguments: StoreKind.allCases)
    func refused(kind: StoreKind) throws {
        let store = TestStore(kind)
        let main = try store.context("main")
        let tech = try sector(main, "tech")
        let coordinator = try store.coordinator("writer")
        func attempt(_ entity: String, _ attributes: [String], _ relationships: [String] = [],
                     _ rows: [([Value], [ObjectID?])]) -> BatchInsertError? {
            var request = BatchInsertRequest(entityName: entity, attributes: attributes, relationships: relationships)
            for row in rows { request.append(row.0, destinations: row.1) }
            do { try coordinator.batchInsert(request); return nil } catch let e as BatchInsertError { return e } catch { return nil }
        }
        let good: ([Value], [ObjectID?]) = ([.string("OK")], [])
        #expect(attempt("Nope", ["symbol"], [], [good]) == .invalidEntity("Nope"))
        #expect(attempt("Asset", ["code"], [], [good]) == .invalidEntity("Asset"), "abstract")
        #expect(attempt("Ticker", ["colour"], [], [good])?.description.contains("'colour'") == true)
        #expect(attempt("Ticker", ["note"], [], [good])?.description.contains("transient") == true)
        #expect(attempt("Ticker", ["symbol"], ["quotes"], [([.string("A")], [nil])])?.description.contains("to-one") == true)
        #expect(attempt("Ticker", ["symbol", "price"], [], [([.string("A"), .double(1)], []), ([.string("B")], [])])
                == .rowShape(entity: "Ticker", row: 1, expected: 2, got: 1))
        let wrongType = attempt("Ticker", ["symbol", "price"], [], [([.string("A"), .double(1)], []), ([.string("B"), .string("cheap")], [])])
        #expect(wrongType?.description.hasPrefix("batch insert into 'Ticker', row 1, key 'price': ") == true, "\(String(describing: wrongType))")
        #expect(attempt("Ticker", ["name"], [], [([.string("x")], [])])
                == .invalidValue(entity: "Ticker", row: 0, key: "symbol", reason: "is required and has no default"))
        #expect(attempt("Ticker", ["symbol"], [], [([.null], [])]) == .invalidValue(entity: "Ticker", row: 0, key: "symbol", reason: "is required"))
        #expect(attempt("Ticker", ["symbol"], ["sector"], [([.string("A")], [.temporary(entityIndex: Int(tech.entityIndex))])])?
                    .description.contains("key 'sector'") == true)
        #expect(attempt("Quote", ["price", "time"], ["ticker"], [([.double(1), .date(Date())], [tech])])?
                    .description.contains("is not a saved Ticker") == true, "a destination of the wrong entity")
        #expect(attempt("Portfolio", ["title"], ["owner"], [([.string("p")], [nil])]) == nil, "a to-one with an unordered inverse is fine")
        let written = try main.performAndWait { try main.count(for: FetchRequest(entityName: "Ticker")) }
        #expect(written == 0, "nothing written by a refused request")
    }
}
