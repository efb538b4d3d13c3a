import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Convenience API: filter, create, get, getOrCreate")
struct ConvenienceTests {
    @Test("synchronous forms", arguments: StoreKind.allCases)
    func synchronous(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        try context.performAndWait {
            let a = try Ticker.create(["symbol": .string("A"), "price": .double(1)], in: context)
            try Ticker.create(["symbol": .string("B"), "price": .double(2)], in: context)
            #expect(a is Ticker)
            #expect(try Ticker.filter(["symbol": ["A", "B"]], in: context, sortedBy: [SortKey("symbol", ascending: false)])
                .map { ($0 as! Ticker).symbol } == ["B", "A"])
            #expect(try Ticker.get(["symbol": "A"], in: context) === a)
            #expect(try Ticker.get(["symbol": "Z"], in: context) == nil)
            #expect(try Ticker.getOrCreate(["symbol": .string("A")], in: context) === a)
            let c = try Ticker.getOrCreate(["symbol": .string("C")], in: context)
            #expect((c as! Ticker).symbol == "C")
            let objects = try context.objects(inEntity: "Ticker", predicate: try ObjectPredicate(format: "price > 1"),
                                              sortedBy: [SortKey("symbol")]) { $0.fetchLimit = 1 }
            #expect(objects.map { ($0 as! Ticker).symbol } == ["B"])
        }
    }

    @Test("asynchronous forms complete on the main queue after merging into the main context")
    func asynchronous() async throws {
        let store = TestStore(.memory)
        let main = ObjectContext(concurrencyType: .mainQueue, coordinator: try store.coordinator("main"), name: "main")
        let created = try await withDeadline(defaultEventDeadline, awaiting: "create's completion") {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<ManagedObject, Error>) in
                Ticker.create(["symbol": .string("ASYNC"), "price": .double(5)], mainContext: main) { result in
                    #expect(main.isOnQueue)
                    c.resume(with: result)
                }
            }
        }
        await MainActor.run {
            #expect(created.managedObjectContext === main)
            #expect(!created.objectID.isTemporary, "saved to the store")
            #expect((created as! Ticker).symbol == "ASYNC")
        }
        let found = try await withDeadline(defaultEventDeadline, awaiting: "filter's completion") {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<[ManagedObject], Error>) in
                Ticker.filter(["symbol": "ASYNC"], mainContext: main) { c.resume(with: $0) }
            }
        }
        #expect(found.count == 1)
        #expect(found.first === created)
        let again = try await withDeadline(defaultEventDeadline, awaiting: "getOrCreate's completion") {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<ManagedObject, Error>) in
                Ticker.getOrCreate(["symbol": .string("ASYNC")], mainContext: main) { c.resume(with: $0) }
            }
        }
        #expect(again === created)
    }
}
