import Foundation
import Testing
@testable import Quarry
import QuarryDemo
import QuarryTestSupport

/// Model-based property test of the fetched-results controller: random local inserts,
/// updates (sort key, section key, predicate membership) and deletes, saves, child-context
/// saves and merged importer saves. After every step the reported changes, applied to a copy
/// of the old sections, must give the controller's new sections, which must equal a fresh fetch.
///
/// Reproduce with `QUARRY_FRC_SEED=<seed> swift test --filter FetchedResultsProperty`.
@Suite("Fetched-results controller: reported changes rebuild the results")
struct FetchedResultsPropertyTests {
    static let sectorNames = ["Energy", "Health", "Tech", "Utilities"]

    @Test("random change sequences", arguments: StoreKind.allCases)
    func randomSequences(kind: StoreKind) throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["QUARRY_FRC_SEED"] ?? "") ?? 0xF4C_0001
        var rng = SplitMix64(seed: seed)
        let store = TestStore(kind)
        let main = try store.context("main")
        let importer = try store.context("importer", policy: .mergeByPropertyObjectTrump)

        // Sectors and a first batch of tickers, saved by the importer.
        let sectorIDs = try importer.performAndWait { () -> [ObjectID] in
            let sectors = try Self.sectorNames.map { n -> Sector in let s = try importer.insert(Sector.self); s.name = n; return s }
            for i in 0..<40 {
                let t = try importer.insert(Ticker.self)
                t.symbol = "S\(i)"
                t.price = Double(rng.below(40))
                if rng.below(10) > 0 { t.sector = sectors[rng.below(sectors.count)] }
            }
            try importer.save()
            return sectors.map(\.objectID)
        }

        var request = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "price >= 10"),
                                   sortDescriptors: [SortKey("sector.name"), SortKey("price", ascending: false), SortKey("symbol")])
        request.fetchBatchSize = 8
        try main.performAndWait {
            let controller = try FetchedResultsController(fetchRequest: request, context: main, sectionNameKeyPath: "sector.name")
            try controller.performFetch()
            let recorder = DiffRecorder(controller.snapshot)
            controller.delegate = recorder
            var next = 1000

            for step in 0..<150 {
                let op = rng.below(7)
                let context = "seed \(seed), step \(step), op \(op), \(kind)"
                switch op {
                case 0, 1:  // local edits in main, announced at processPendingChanges
                    for _ in 0..<(1 + rng.below(3)) {
                        let tickers = try main.objects(of: Ticker.self)
                        if rng.below(4) == 0 || tickers.isEmpty {
                            let t = try main.insert(Ticker.self); t.symbol = "L\(next)"; next += 1
                            t.price = Double(rng.below(40))
                            t.sector = main.object(with: sectorIDs[rng.below(sectorIDs.count)]) as? Sector
                        } else {
                            let t = tickers[rng.below(tickers.count)]
                            switch rng.below(4) {
                            case 0: t.price = Double(rng.below(40))
                            case 1: t.sector = rng.below(5) == 0 ? nil : main.object(with: sectorIDs[rng.below(sectorIDs.count)]) as? Sector
                            case 2: main.delete(t)
                            default: t.name = "renamed \(step)"
                            }
                        }
                    }
                    main.processPendingChanges()
                case 2:
                    try main.save()
                case 3:  // a child context's save into main
                    let child = ObjectContext(concurrencyType: .privateQueue, parent: main, name: "child")
                    try child.performAndWait {
                        let tickers = try child.objects(of: Ticker.self)
                        if let t = tickers.isEmpty ? nil : tickers[rng.below(tickers.count)] { t.price = Double(rng.below(40)) }
                        let n = try child.insert(Ticker.self); n.symbol = "C\(next)"; next += 1
                        n.price = Double(10 + rng.below(30))
                        try child.save()
                    }
                default:  // an importer save merged into main
                    let changes = try importer.performAndWait { () -> SaveChanges in
                        let tickers = try importer.objects(of: Ticker.self)
                        for _ in 0..<(1 + rng.below(6)) {
                            switch rng.below(4) {
                            case 0:
                                let t = try importer.insert(Ticker.self); t.symbol = "I\(next)"; next += 1
                                t.price = Double(rng.below(40))
                                t.sector = importer.object(with: sectorIDs[rng.below(sectorIDs.count)]) as? Sector
                            case 1 where !tickers.isEmpty:
                                let t = tickers[rng.below(tickers.count)]
                                if !t.isDeleted { importer.delete(t) }
                            case 2 where !tickers.isEmpty, 3 where !tickers.isEmpty:
                                let t = tickers[rng.below(tickers.count)]
                                if !t.isDeleted {
                                    t.price = Double(rng.below(40))
                                    if rng.below(3) == 0 { t.sector = importer.object(with: sectorIDs[rng.below(sectorIDs.count)]) as? Sector }
                                }
                            default: break
                            }
                        }
                        guard case .saved(let c) = try importer.save() else { return SaveChanges() }
                        return c
                    }
                    main.merge(fromDidSave: changes)
                }
                let now = controller.snapshot
                #expect(recorder.violations.isEmpty, "\(context): \(recorder.violations)")
                #expect(recorder.sections == now.sections, "\(context): sections rebuilt from changes differ")
                #expect(recorder.items == now.items, "\(context): rows rebuilt from changes differ")
                let fresh = try FetchedResultsController(fetchRequest: request, context: main, sectionNameKeyPath: "sector.name")
                try fresh.performFetch()
                let freshItems = fresh.snapshot.items.flatMap { $0 }, nowItems = now.items.flatMap { $0 }
                #expect(fresh.snapshot.sections == now.sections && fresh.snapshot.items == now.items,
                        "\(context): differs from a fresh fetch; only fresh \(Set(freshItems).subtracting(nowItems)), only live \(Set(nowItems).subtracting(freshItems)), first difference at \(Array(zip(freshItems, nowItems)).firstIndex { $0.0 != $0.1 } ?? -1)")
                if recorder.items != now.items, ProcessInfo.processInfo.environment["QUARRY_FRC_DEBUG"] != nil {
                    for i in 0..<min(12, controller.results.count) {
                        print("DBG \(controller.results.id(at: i)) \(controller.results.keys(at: i)) \(main.object(with: controller.results.id(at: i)))")
                    }
                    print("DBG log \(recorder.log)")
                }
                if recorder.violations.count > 0 || recorder.items != now.items || fresh.snapshot.items != now.items { break }
            }
            #expect(recorder.events > 50)
        }
    }
}
