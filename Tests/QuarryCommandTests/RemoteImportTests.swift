import Foundation
import Quarry
import QuarryTestSupport
import Testing

@Suite("Remote changes across processes: `quarry import` into a store a controller here shows")
struct RemoteImportTests {
    static let model = TestModels.tickers()

    @Test("rows another process imports reach this process's controller as merged row inserts, not a re-fetch")
    func importByAnotherProcessIsMerged() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("tickers.sqlite")
        let stack = try PersistentStack(model: Self.model, storeURL: url)
        let importer = stack.importerContext()
        try importer.performAndWait {
            for (symbol, price) in [("AAA", 1.0), ("CCC", 3.0)] {
                let t = try importer.insert(Ticker.self)
                t.symbol = symbol
                t.price = price
            }
            try importer.save()
        }
        let (controller, recorder) = try await MainActor.run { () -> (FetchedResultsController, DiffRecorder) in
            let controller = try FetchedResultsController(
                fetchRequest: FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("price")]), context: stack.mainContext)
            try controller.performFetch()
            let recorder = DiffRecorder(controller.snapshot)
            controller.delegate = recorder
            return (controller, recorder)
        }
        let csv = try QuarryExecutable.write("symbol,price\nBBB,2\nDDD,4\nZZZ,0.5\n", to: directory.file("more.csv"))
        let changes = try await remoteChanges(of: stack, after: {
            let result = try QuarryExecutable.run(["import", url.path, csv.path, "--entity", "Ticker"])
            #expect(result.status == 0, "\(result.standardError)")
        }, until: { controller.count == 5 })
        #expect(changes.allSatisfy { !$0.isExternal && $0.tokens != nil }, "merged from history: \(changes)")
        await MainActor.run {
            #expect(recorder.items == controller.snapshot.items, "\(recorder.log)")
            #expect(recorder.resets == 0 && recorder.violations.isEmpty)
            let symbols = controller.snapshot.items[0].map { (stack.mainContext.object(with: $0) as! Ticker).symbol }
            #expect(symbols == ["ZZZ", "AAA", "BBB", "CCC", "DDD"])
        }
    }
}
