import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A table reads a batch's rows one by one, holding none of them: the context holds unchanged
/// objects weakly, so the controller keeps the batches it faulted in (and their prefetched
/// destinations) alive, and each batch is read from the store once.
@Suite struct BatchFaultHoldingTests {
    @Test func readingABatchRowByRowFaultsItInOnce() throws {
        let model = TestModels.tickers()
        let store = CountingStore(base: InMemoryStore(model: model))
        let coordinator = StoreCoordinator(store: store, name: "count")
        let writer = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "writer")
        try writer.performAndWait {
            let sectors = try (0..<3).map { i -> ManagedObject in
                let sector = try writer.insertObject(entityName: "Sector")
                try sector.setValue(.string("S\(i)"), forKey: "name")
                return sector
            }
            for i in 0..<100 {
                let ticker = try writer.insert(Ticker.self)
                ticker.symbol = String(format: "T%03d", i)
                try ticker.setObject(sectors[i % 3], forKey: "sector")
            }
            try writer.save()
        }
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "reader")
        try context.performAndWait {
            var request = FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")])
            request.fetchBatchSize = 20
            request.relationshipKeyPathsForPrefetching = ["sector"]
            let controller = try FetchedResultsController(fetchRequest: request, context: context)
            try controller.performFetch()
            store.snapshotReads = 0
            store.objectsRead = 0
            // The first 40 rows (two batches), each object and its sector's name read and dropped.
            var names: [String] = []
            for row in 0..<40 {
                let object = controller.object(at: RowPath(section: 0, row: row))
                #expect(!object.isFault)
                guard let sector = try object.object(forKey: "sector"),
                      case .string(let name) = try sector.value(forKey: "name") else {
                    Issue.record("row \(row): no sector name")
                    return
                }
                names.append(name)
            }
            #expect(names.count == 40)
            #expect(names.first == "S0")
            // One read per batch for its 20 rows; the three sectors once, with the first batch
            // (the second batch's are still held).
            #expect(store.snapshotReads == 3)
            #expect(store.objectsRead == 20 + 3 + 20)
        }
    }
}
