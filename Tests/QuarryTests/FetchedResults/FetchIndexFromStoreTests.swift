import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// The controller builds its index from the store's stream of (ID, sort keys) rows, whatever
/// the store (no downcast to one store type).
@Suite struct FetchIndexFromStoreTests {
    @Test func theControllerReadsAnyStoreThroughItsRowStream() throws {
        let model = TestModels.tickers()
        let store = CountingStore(base: InMemoryStore(model: model))
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "count"), name: "count")
        try context.performAndWait {
            for symbol in ["C", "A", "B"] { try context.insert(Ticker.self).symbol = symbol }
            try context.save()
            let controller = try FetchedResultsController(fetchRequest: FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")]), context: context)
            try controller.performFetch()
            #expect(controller.fetchedObjects.map { ($0 as! Ticker).symbol } == ["A", "B", "C"])
            #expect(store.streamed == 3)
        }
    }

    @Test func theBuilderCutsChunksAndKeepsEveryRowInOrder() throws {
        let n = SortedResults.chunkSize * 3 + 5
        var builder = SortedResults.Builder(sortKeys: [SortKey("a"), SortKey("b")])
        for i in 0..<n {
            builder.append(ValuesKeyedRow(id: ObjectID(entityIndex: 0, primaryKey: Int64(i + 1)),
                                          keys: [.integer(Int64(i / 2)), i % 14 == 0 ? .null : .string("s\(1000 + i)")]))
        }
        let results = builder.finish()
        #expect(results.count == n)
        #expect(results.invariantViolation() == nil)
        #expect(results.allIDs == (0..<n).map { ObjectID(entityIndex: 0, primaryKey: Int64($0 + 1)) })
        #expect(results.keys(at: 10) == [.integer(5), .string("s1010")])
        #expect(results.keys(at: 14) == [.integer(7), .null])
    }
}
