import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Aggregate controller")
struct AggregateResultsControllerTests {
    /// Count, sum of volume and mean price per sector name, most tickers first.
    static func perSector() throws -> FetchRequest {
        var request = FetchRequest(entityName: "Ticker")
        request.propertiesToFetch = try FetchedProperty.list(parsing: "sector.name, count(), sum(volume), avg(price)")
        request.propertiesToGroupBy = ["sector.name"]
        request.sortDescriptors = [SortKey("count()", ascending: false)]
        return request
    }

    /// Runs `edit` on `importer`'s queue, saves it, and merges the save into `main` (called on
    /// main's queue).
    static func merge(_ edit: () throws -> Void, savedIn importer: ObjectContext, into main: ObjectContext) throws {
        let changes = try importer.performAndWait { () -> SaveChanges in
            try edit()
            guard case .saved(let c) = try importer.save() else { return SaveChanges() }
            return c
        }
        main.merge(fromDidSave: changes)
    }

    /// Sectors `tech` and `energy` with `perSector` tickers each (volume 1, price 10), saved.
    static func seed(_ context: ObjectContext, tech: Int, energy: Int) throws -> [String: ObjectID] {
        try context.performAndWait {
            let t = try context.insert(Sector.self); t.name = "tech"
            let e = try context.insert(Sector.self); e.name = "energy"
            for i in 0..<(tech + energy) {
                let ticker = try context.insert(Ticker.self)
                ticker.symbol = "T\(i)"; ticker.volume = 1; ticker.price = 10
                ticker.sector = i < tech ? t : e
            }
            try context.save()
            return ["tech": t.objectID, "energy": e.objectID]
        }
    }

    @Test("the groups are fetchDictionaries' rows, on every back end", arguments: StoreKind.allCases)
    func groupsMatchDictionaries(kind: StoreKind) throws {
        let store = TestStore(kind)
        store.model.registerTickerClasses()
        let main = try store.context("main")
        _ = try Self.seed(main, tech: 3, energy: 5)
        try main.performAndWait {
            let controller = try AggregateResultsController(fetchRequest: try Self.perSector(), context: main)
            try controller.performFetch()
            #expect(controller.groups.map(\.values) == (try main.fetchDictionaries(try Self.perSector())))
            #expect(controller.groups.map(\.key) == [[.string("energy")], [.string("tech")]])
            #expect(controller.group(at: 0)["count()"] == .integer(5))
            #expect(controller.index(ofGroupWithKey: [.string("tech")]) == 1)
        }
    }

    @Test("a merged save changing only aggregated values is applied from the save's own state: no store query")
    func mergedValueChangeNeedsNoQuery() throws {
        let store = TestStore(.sqlite)
        store.model.registerTickerClasses()
        let main = try store.context("main")
        let importer = try store.context("importer")
        _ = try Self.seed(importer, tech: 1_000, energy: 10)
        try main.performAndWait {
            let controller = try AggregateResultsController(fetchRequest: try Self.perSector(), context: main)
            try controller.performFetch()
            let recorder = AggregateRecorder(controller)
            controller.delegate = recorder
            try Self.merge({
                for t in try importer.fetch(FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "sector.name == 'tech'"))) as! [Ticker] {
                    t.volume = 3
                }
            }, savedIn: importer, into: main)
            #expect(controller.lastUpdate?.objects == 1_000)
            #expect(controller.lastUpdate?.storeQueries == 0)
            #expect(controller.lastUpdate?.recomputed == false)
            #expect(controller.lastUpdate?.groups == 1)
            #expect(controller.group(at: 0)["sum(volume)"] == .integer(3_000))
            #expect(main.registeredObjectCount == 0, "nothing was loaded to decide")
            #expect(recorder.log == ["update 0→- [\'tech\']"], "\(recorder.log)")
        }
    }

    @Test("a merged insert through a to-one group key is read in one query; a renamed sector regroups")
    func queriesAndRecomputes() throws {
        let store = TestStore(.sqlite)
        store.model.registerTickerClasses()
        let main = try store.context("main")
        let importer = try store.context("importer")
        let sectors = try Self.seed(importer, tech: 2, energy: 3)
        try main.performAndWait {
            let controller = try AggregateResultsController(fetchRequest: try Self.perSector(), context: main)
            try controller.performFetch()
            let recorder = AggregateRecorder(controller)
            controller.delegate = recorder
            func merge(_ edit: () throws -> Void) throws { try Self.merge(edit, savedIn: importer, into: main) }
            // Two more tech tickers: tech (4) overtakes energy (3) and moves to the top.
            try merge {
                for i in 0..<2 {
                    let t = try importer.insert(Ticker.self); t.symbol = "N\(i)"; t.volume = 1
                    t.sector = importer.object(with: sectors["tech"]!) as? Sector
                }
            }
            #expect(controller.lastUpdate?.storeQueries == 1)
            #expect(controller.groups.map(\.key) == [[.string("tech")], [.string("energy")]])
            #expect(recorder.groups == controller.groups && recorder.violations.isEmpty, "\(recorder.log) \(recorder.violations)")
            // Renaming a sector changes the group key of objects that did not change.
            try merge { (importer.object(with: sectors["energy"]!) as! Sector).name = "oil" }
            #expect(controller.lastUpdate?.recomputed == true)
            #expect(controller.groups.map(\.key) == [[.string("tech")], [.string("oil")]])
            #expect(recorder.groups == controller.groups && recorder.violations.isEmpty, "\(recorder.log) \(recorder.violations)")
            #expect(recorder.resets == 0)
        }
    }

    @Test("merged moves between known destinations need no store query; a renamed or new destination is read again", arguments: [StoreKind.sqlite, .memory])
    func movesThroughKeptDestinationValues(kind: StoreKind) throws {
        let store = TestStore(kind)
        store.model.registerTickerClasses()
        let main = try store.context("main")
        let importer = try store.context("importer")
        let sectors = try Self.seed(importer, tech: 3, energy: 3)
        try main.performAndWait {
            let controller = try AggregateResultsController(fetchRequest: try Self.perSector(), context: main)
            try controller.performFetch()
            func merge(_ edit: () throws -> Void) throws {
                try Self.merge(edit, savedIn: importer, into: main)
                let fetched = try main.fetchDictionaries(try Self.perSector()).map { AggregateGroup(key: [$0["sector.name"] ?? .null], values: $0) }
                #expect(Set(controller.groups) == Set(fetched), "the live groups are the grouped fetch's")
            }
            func move(_ symbols: [String], to sector: String) throws {
                for symbol in symbols {
                    let ticker = try importer.fetch(FetchRequest(entityName: "Ticker", predicate: PredicateKey("symbol") == .string(symbol))).first as! Ticker
                    ticker.sector = importer.object(with: sectors[sector]!) as? Sector
                }
            }
            try merge { try move(["T0"], to: "energy") }
            #expect(controller.lastUpdate?.storeQueries == 1, "the destinations' names read once")
            try merge { try move(["T1", "T3"], to: "energy") }
            #expect(controller.lastUpdate?.storeQueries == 0, "both destinations known: decided from the save alone")
            #expect(controller.lastUpdate?.recomputed == false)
            try merge { (importer.object(with: sectors["energy"]!) as! Sector).name = "oil" }
            #expect(controller.lastUpdate?.recomputed == true)
            try merge { try move(["T4"], to: "tech") }
            #expect(controller.lastUpdate?.storeQueries == 1, "forgotten by the recompute: read again")
            try merge {
                let mining = try importer.insert(Sector.self); mining.name = "mining"
                let ticker = try importer.fetch(FetchRequest(entityName: "Ticker", predicate: PredicateKey("symbol") == .string("T5"))).first as! Ticker
                ticker.sector = mining
            }
            #expect(controller.groups.contains { $0.key == [.string("mining")] })
            try merge {
                let ticker = try importer.fetch(FetchRequest(entityName: "Ticker", predicate: PredicateKey("symbol") == .string("T2"))).first as! Ticker
                ticker.sector = nil
            }
            #expect(controller.groups.contains { $0.key == [.null] })
        }
    }

    @Test("a minimum whose value leaves is recomputed from the group's values; emptied groups leave")
    func extremesAndEmptiedGroups() throws {
        let store = TestStore(.memory)
        store.model.registerTickerClasses()
        let main = try store.context("main")
        try main.performAndWait {
            let tech = try main.insert(Sector.self); tech.name = "tech"
            let tickers = try (0..<3).map { i -> Ticker in
                let t = try main.insert(Ticker.self); t.symbol = "T\(i)"; t.price = Double(10 + i); t.sector = tech
                return t
            }
            try main.save()
            var request = FetchRequest(entityName: "Ticker")
            request.propertiesToFetch = try FetchedProperty.list(parsing: "sector.name, min(price), max(price), count()")
            request.propertiesToGroupBy = ["sector.name"]
            let controller = try AggregateResultsController(fetchRequest: request, context: main)
            try controller.performFetch()
            let recorder = AggregateRecorder(controller)
            controller.delegate = recorder
            tickers[0].price = 50
            main.processPendingChanges()
            #expect(controller.group(at: 0)["min(price)"] == .double(11))
            #expect(controller.group(at: 0)["max(price)"] == .double(50))
            for t in tickers { main.delete(t) }
            main.processPendingChanges()
            #expect(controller.numberOfGroups == 0)
            #expect(recorder.log == ["delete 0→- [\'tech\']"], "\(recorder.log)")
        }
    }

    @Test("a batch update through the stack reaches the controller as an ordinary diff")
    func batchUpdateMerged() async throws {
        let directory = TemporaryDirectory()
        var options = PersistentStack.Options()
        options.storeURL = directory.file("aggregate.sqlite")
        let stack = try PersistentStack(model: TestModels.tickers(), options: options)
        stack.mainContext.model.registerTickerClasses()
        _ = try Self.seed(stack.importerContext(), tech: 4, energy: 2)
        let (controller, recorder) = try await MainActor.run { () -> (AggregateResultsController, AggregateRecorder) in
            let c = try AggregateResultsController(fetchRequest: try Self.perSector(), context: stack.mainContext)
            try c.performFetch()
            let r = AggregateRecorder(c)
            c.delegate = r
            return (c, r)
        }
        _ = try await nextMerge(of: stack) {
            try stack.execute(try BatchUpdateRequest(entityName: "Ticker", predicate: ObjectPredicate(format: "sector.name == 'energy'"), setting: "volume = volume + 9"))
        }
        await MainActor.run {
            #expect(controller.groups.first { $0.key == [.string("energy")] }?["sum(volume)"] == .integer(20))
            #expect(controller.lastUpdate?.storeQueries == 0 && controller.lastUpdate?.recomputed == false)
            #expect(recorder.groups == controller.groups && recorder.events == 1 && recorder.resets == 0)
        }
    }

    @Test("requests it cannot keep live are refused with the reason")
    func refusals() throws {
        let store = TestStore(.memory)
        let main = try store.context("main")
        try main.performAndWait {
            #expect(throws: QueryError.self) { try AggregateResultsController(fetchRequest: FetchRequest(entityName: "Ticker"), context: main) }
            var limited = try Self.perSector()
            limited.fetchLimit = 3
            let error = #expect(throws: QueryError.self) { try AggregateResultsController(fetchRequest: limited, context: main) }
            #expect("\(error!)".contains("fetchLimit"))
            var badSort = try Self.perSector()
            badSort.sortDescriptors = [SortKey("price")]
            let sortError = #expect(throws: QueryError.self) { try AggregateResultsController(fetchRequest: badSort, context: main) }
            #expect("\(sortError!)".contains("'price' is not a result column"))
            var toMany = try Self.perSector()
            toMany.propertiesToGroupBy = ["tags.label"]
            #expect(throws: QueryError.self) { try AggregateResultsController(fetchRequest: toMany, context: main) }
        }
    }
}
