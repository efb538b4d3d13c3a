import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Records the calls of one event, in order.
final class CallLog: FetchedResultsControllerDelegate, @unchecked Sendable {
    // Used on the controller's context queue only.
    var calls: [String] = []
    func controllerWillChangeContent(_ controller: FetchedResultsController) { calls.append("will") }
    func controller(_ controller: FetchedResultsController, didChangeSection section: SectionInfo, atSectionIndex index: Int, for type: ResultsChangeType) {
        calls.append("section \(type) \(index) \(section.name)")
    }
    func controller(_ controller: FetchedResultsController, didChangeObject objectID: ObjectID, at indexPath: RowPath?, for type: ResultsChangeType, newIndexPath: RowPath?) {
        calls.append("\(type) \(indexPath.map(\.description) ?? "-") \(newIndexPath.map(\.description) ?? "-")")
    }
    func controllerDidChangeContent(_ controller: FetchedResultsController) { calls.append("did") }
    func controllerDidResetContent(_ controller: FetchedResultsController) { calls.append("reset") }
}

@Suite("Fetched-results controller")
struct FetchedResultsControllerTests {
    func tickers(_ context: ObjectContext, _ rows: [(String, Double, String?)]) throws {
        try context.performAndWait {
            var sectors: [String: Sector] = [:]
            for (symbol, price, sector) in rows {
                let t = try context.insert(Ticker.self)
                t.symbol = symbol
                t.price = price
                if let sector {
                    if sectors[sector] == nil { let s = try context.insert(Sector.self); s.name = sector; sectors[sector] = s }
                    t.sector = sectors[sector]
                }
            }
            try context.save()
        }
    }

    @Test("sections, index titles, object(at:) and indexPath(for:)", arguments: StoreKind.allCases)
    func reading(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        try tickers(context, [("A", 1, "tech"), ("B", 2, "energy"), ("C", 3, "tech"), ("D", 4, nil)])
        try context.performAndWait {
            let request = FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("sector.name"), SortKey("symbol")])
            let controller = try FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: "sector.name")
            try controller.performFetch()
            #expect(controller.sections.map(\.name) == ["", "energy", "tech"])
            #expect(controller.sections.map(\.numberOfObjects) == [1, 1, 2])
            #expect(controller.sectionIndexTitles == ["", "E", "T"])
            let c = controller.object(at: RowPath(section: 2, row: 1)) as! Ticker
            #expect(c.symbol == "C")
            #expect(controller.indexPath(for: c) == RowPath(section: 2, row: 1))
            #expect(controller.fetchedObjects.map { ($0 as! Ticker).symbol } == ["D", "B", "A", "C"])
        }
    }

    @Test("a section key path that is not the first sort key is refused")
    func sectionKeyMustLead() throws {
        let context = try TestStore(.memory).context()
        let request = FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")])
        #expect(throws: QueryError.self) { try FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: "sector.name") }
        // No sort key at all is object-ID order (FetchedResultsWithoutSortKeyTests), with no section.
        #expect(throws: QueryError.self) { try FetchedResultsController(fetchRequest: FetchRequest(entityName: "Ticker"), context: context, sectionNameKeyPath: "symbol") }
    }

    @Test("one event: will, section changes, object changes, did; a moved object is a move, not an update")
    func callbackOrder() throws {
        let context = try TestStore(.memory).context()
        try tickers(context, [("A", 1, "tech"), ("B", 2, "tech"), ("C", 3, "tech")])
        try context.performAndWait {
            let request = FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("sector.name"), SortKey("price")])
            let controller = try FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: "sector.name")
            try controller.performFetch()
            let log = CallLog()
            controller.delegate = log
            let all = try context.objects(of: Ticker.self)
            all.first { $0.symbol == "A" }!.price = 10           // moves from [0,0] to [0,2]
            let energy = try context.insert(Sector.self); energy.name = "energy"
            all.first { $0.symbol == "C" }!.sector = energy      // new section before "tech"
            context.processPendingChanges()
            #expect(log.calls.first == "will" && log.calls.last == "did")
            #expect(log.calls.contains("section insert 0 energy"))
            let firstObject = log.calls.firstIndex { !$0.hasPrefix("section") && $0 != "will" }!
            #expect(log.calls[1..<firstObject].allSatisfy { $0.hasPrefix("section") }, "section changes come first: \(log.calls)")
            #expect(log.calls.contains("move [0, 0] [1, 1]"), "\(log.calls)")
            for call in log.calls where call.hasPrefix("move") {
                let paths = call.dropFirst(5).components(separatedBy: "] [")
                #expect(paths.count == 2 && paths[0] + "]" != "[" + paths[1], "no move to the same path: \(call)")
            }
        }
    }

    @Test("reset tells the delegate to reload, without per-object deletes")
    func reset() throws {
        let context = try TestStore(.memory).context()
        try tickers(context, [("A", 1, nil), ("B", 2, nil)])
        try context.performAndWait {
            let controller = try FetchedResultsController(fetchRequest: FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")]), context: context)
            try controller.performFetch()
            let log = CallLog()
            controller.delegate = log
            context.reset()
            #expect(log.calls == ["reset"])
            #expect(controller.count == 2)
        }
    }

    @Test("through the stack: an importer update makes an unregistered object match, and it appears")
    func smartMergeReachesController() async throws {
        let directory = TemporaryDirectory()
        var options = PersistentStack.Options()
        options.storeURL = directory.file("frc.sqlite")
        let stack = try PersistentStack(model: TestModels.tickers(), options: options)
        let importer = stack.importerContext()
        let ids = try importer.performAndWait { () -> [ObjectID] in
            let ts = try (0..<20).map { i -> Ticker in let t = try importer.insert(Ticker.self); t.symbol = "T\(i)"; t.price = Double(i); return t }
            try importer.save()
            return ts.map(\.objectID)
        }
        let (controller, log, registeredBefore) = try await MainActor.run { () -> (FetchedResultsController, CallLog, Int) in
            let request = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "price >= 15"), sortDescriptors: [SortKey("price")])
            let c = try FetchedResultsController(fetchRequest: request, context: stack.mainContext)
            try c.performFetch()
            let log = CallLog()
            c.delegate = log
            return (c, log, stack.mainContext.registeredObjectCount)
        }
        _ = try await nextMerge(of: stack) {
            try importer.performAndWait {
                (importer.object(with: ids[3]) as! Ticker).price = 100   // now matches, not registered in main
                (importer.object(with: ids[19]) as! Ticker).price = 1    // no longer matches
                try importer.save()
            }
        }
        await MainActor.run {
            #expect(controller.snapshot.items[0].contains(ids[3]))
            #expect(!controller.snapshot.items[0].contains(ids[19]))
            #expect(log.calls.contains("insert - [0, 4]"), "\(log.calls)")
            #expect(stack.mainContext.registeredObjectCount == registeredBefore, "nothing loaded to decide")
        }
    }
}
