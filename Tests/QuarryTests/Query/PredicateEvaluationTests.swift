import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Every operator and modifier, through both back ends: the store's (SQL for SQLite) and the
/// in-memory evaluator over the same objects.
@Suite("Predicate evaluation in both back ends")
struct PredicateEvaluationTests {
    static let rows: [(symbol: String, name: String?, price: Double, volume: Int64, active: Bool, sector: String?, tags: [String])] = [
        ("AAPL", "Apple", 190.5, 1_000, true, "Tech", ["big", "growth"]),
        ("ECOA", "Écologie", 12, 50, true, "Energy", ["green"]),
        ("ECOB", "ecologie", 12.0, 70, false, "Energy", []),
        ("NIL", nil, 0, 0, false, nil, []),
        ("TYO", "東京電力", 3.25, 9_000, true, "Energy", ["big"]),
        ("F10", "file10", 10, 10, true, "Tech", ["growth"]),
        ("F2", "file2", 2, 2, true, "Tech", []),
        ("EMO", "Rocket 🚀", 42, 42, true, nil, ["growth", "green"]),
    ]

    /// Builds the store and returns a context with everything saved.
    static func populated(_ kind: StoreKind) throws -> (TestStore, ObjectContext) {
        let store = TestStore(kind)
        let context = try store.context()
        try context.performAndWait {
            var sectors: [String: Sector] = [:]
            var tags: [String: TickerTag] = [:]
            for row in rows {
                let t = try context.insert(Ticker.self)
                t.symbol = row.symbol
                t.name = row.name
                t.price = row.price
                t.volume = row.volume
                t.active = row.active
                t.listed = row.symbol == "NIL" ? nil : Date(timeIntervalSinceReferenceDate: row.price * 1000)
                if let s = row.sector {
                    if sectors[s] == nil { let x = try context.insert(Sector.self); x.name = s; sectors[s] = x }
                    t.sector = sectors[s]
                }
                for tag in row.tags {
                    if tags[tag] == nil { let x = try context.insert(TickerTag.self); x.label = tag; tags[tag] = x }
                    try t.add(tags[tag]!, toKey: "tags")
                }
            }
            try context.save()
        }
        return (store, context)
    }

    static let cases: [(String, [PredicateArgument], Set<String>)] = [
        ("symbol == 'AAPL'", [], ["AAPL"]),
        ("symbol != 'AAPL'", [], ["ECOA", "ECOB", "NIL", "TYO", "F10", "F2", "EMO"]),
        ("price < 10", [], ["NIL", "TYO", "F2"]),
        ("price <= 10", [], ["NIL", "TYO", "F2", "F10"]),
        ("price > 42", [], ["AAPL"]),
        ("price >= 42", [], ["AAPL", "EMO"]),
        ("volume BETWEEN {10, 70}", [], ["ECOA", "ECOB", "F10", "EMO"]),
        ("symbol IN {'F2', 'F10', 'ZZZ'}", [], ["F2", "F10"]),
        ("symbol IN %@", [["TYO", "EMO"]], ["TYO", "EMO"]),
        ("name == nil", [], ["NIL"]),
        ("name != nil", [], ["AAPL", "ECOA", "ECOB", "TYO", "F10", "F2", "EMO"]),
        ("name != 'Apple'", [], ["ECOA", "ECOB", "NIL", "TYO", "F10", "F2", "EMO"]),
        ("NOT name BEGINSWITH 'f'", [], ["AAPL", "ECOA", "ECOB", "NIL", "TYO", "EMO"]),
        ("name BEGINSWITH 'e'", [], ["ECOB"]),
        ("name BEGINSWITH[c] 'É'", [], ["ECOA"]),
        ("name BEGINSWITH[cd] 'e'", [], ["ECOA", "ECOB"]),
        ("name ==[cd] 'ECOLOGIE'", [], ["ECOA", "ECOB"]),
        ("name ==[d] 'Ecologie'", [], ["ECOA"]),
        ("name ENDSWITH 'le10'", [], ["F10"]),
        ("name CONTAINS '電'", [], ["TYO"]),
        ("name CONTAINS[c] 'LOG'", [], ["ECOA", "ECOB"]),
        ("name CONTAINS '🚀'", [], ["EMO"]),
        ("name LIKE 'file?'", [], ["F2"]),
        ("name LIKE 'file*'", [], ["F10", "F2"]),
        ("name LIKE[c] '*PP*'", [], ["AAPL"]),
        ("name MATCHES 'file[0-9]+'", [], ["F10", "F2"]),
        ("name MATCHES[c] 'APPLE'", [], ["AAPL"]),
        ("active == YES", [], ["AAPL", "ECOA", "TYO", "F10", "F2", "EMO"]),
        ("active == NO AND price > 1", [], ["ECOB"]),
        ("price > 100 OR volume > 5000", [], ["AAPL", "TYO"]),
        ("listed < %@", [.value(.date(Date(timeIntervalSinceReferenceDate: 5000)))], ["TYO", "F2"]),
        ("listed == nil", [], ["NIL"]),
        ("sector.name == 'Energy'", [], ["ECOA", "ECOB", "TYO"]),
        ("sector == nil", [], ["NIL", "EMO"]),
        ("sector.name != 'Tech'", [], ["ECOA", "ECOB", "TYO", "NIL", "EMO"]),
        ("ANY tags.label == 'growth'", [], ["AAPL", "F10", "EMO"]),
        ("ALL tags.label BEGINSWITH 'g'", [], ["ECOA", "ECOB", "NIL", "F10", "F2", "EMO"]),
        ("NONE tags.label == 'big'", [], ["ECOA", "ECOB", "NIL", "F10", "F2", "EMO"]),
        ("tags.@count == 2", [], ["AAPL", "EMO"]),
        ("tags.@count == 0", [], ["ECOB", "NIL", "F2"]),
        ("%K > %@", ["volume", 1000], ["TYO"]),
        ("TRUEPREDICATE", [], ["AAPL", "ECOA", "ECOB", "NIL", "TYO", "F10", "F2", "EMO"]),
        ("FALSEPREDICATE", [], []),
        ("NOT (price > 10 AND active == YES)", [], ["ECOB", "NIL", "TYO", "F10", "F2"]),
    ]

    @Test("each operator gives the expected objects in the store and in memory", arguments: StoreKind.allCases)
    func operators(kind: StoreKind) throws {
        let (_, context) = try Self.populated(kind)
        try context.performAndWait {
            let all = try context.fetch(FetchRequest(entityName: "Ticker"))
            for (format, args, expected) in Self.cases {
                let predicate = try ObjectPredicate(format: format, arguments: args)
                let stored = try context.fetch(FetchRequest(entityName: "Ticker", predicate: predicate)).map { ($0 as! Ticker).symbol }
                #expect(Set(stored) == expected, "store: \(format)")
                let evaluator = try PredicateEvaluator(predicate, entity: context.model.entity(named: "Ticker")!, model: context.model)
                let inMemory = all.filter(evaluator.evaluate).map { ($0 as! Ticker).symbol }
                #expect(Set(inMemory) == expected, "memory: \(format)")
            }
        }
    }

    @Test("unknown keys name the entity and key; nothing runs", arguments: StoreKind.allCases)
    func unknownKeys(kind: StoreKind) throws {
        let (_, context) = try Self.populated(kind)
        context.performAndWait {
            #expect(throws: QueryError.unknownKey(entity: "Ticker", key: "nope")) {
                try context.fetch(FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "nope == 1")))
            }
            #expect(throws: QueryError.unknownKey(entity: "Sector", key: "label")) {
                try context.fetch(FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "sector.label == 1")))
            }
            #expect(throws: QueryError.self) {
                try context.fetch(FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "tags.label == 'x'")))
            }
            #expect(throws: QueryError.invalidRegularExpression("(")) {
                try context.fetch(FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "name MATCHES '('")))
            }
        }
    }

    @Test("sorting: binary, case-insensitive, localized standard; ties by object ID", arguments: StoreKind.allCases)
    func sorting(kind: StoreKind) throws {
        let (_, context) = try Self.populated(kind)
        try context.performAndWait { () throws in
            func symbols(_ keys: [SortKey], _ predicate: String = "name != nil") throws -> [String] {
                try context.fetch(FetchRequest(entityName: "Ticker", predicate: ObjectPredicate(format: predicate), sortDescriptors: keys))
                    .map { ($0 as! Ticker).symbol }
            }
            #expect(try symbols([SortKey("name")]) == ["AAPL", "EMO", "ECOB", "F10", "F2", "ECOA", "TYO"])
            #expect(try symbols([SortKey("name", comparison: .localizedStandard)], "name BEGINSWITH 'file'") == ["F2", "F10"])
            #expect(try symbols([SortKey("name", comparison: .caseInsensitive)], "name BEGINSWITH[c] 'a' OR name BEGINSWITH 'R'") == ["AAPL", "EMO"])
            #expect(try symbols([SortKey("price", ascending: false)], "price == 12") == ["ECOA", "ECOB"], "ties by object ID")
            #expect(try symbols([SortKey("sector.name"), SortKey("symbol")], "TRUEPREDICATE") == ["EMO", "NIL", "ECOA", "ECOB", "TYO", "AAPL", "F10", "F2"])
        }
    }

    @Test("fetches honour unsaved inserts, updates and deletes", arguments: StoreKind.allCases)
    func pendingChanges(kind: StoreKind) throws {
        let (_, context) = try Self.populated(kind)
        try context.performAndWait {
            let request = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "price > 40"), sortDescriptors: [SortKey("price")])
            #expect(try context.fetch(request).map { ($0 as! Ticker).symbol } == ["EMO", "AAPL"])
            let n = try context.insert(Ticker.self); n.symbol = "NEW"; n.price = 50
            let f2 = try context.objects(of: Ticker.self).first { $0.symbol == "F2" }!
            f2.price = 1000
            let emo = try context.objects(of: Ticker.self).first { $0.symbol == "EMO" }!
            context.delete(emo)
            #expect(try context.fetch(request).map { ($0 as! Ticker).symbol } == ["NEW", "AAPL", "F2"])
            var ignoring = request
            ignoring.includesPendingChanges = false
            #expect(try context.fetch(ignoring).map { ($0 as! Ticker).symbol } == ["EMO", "AAPL"])
            #expect(try context.count(for: request) == 3)
            var limited = request
            limited.fetchLimit = 1
            limited.fetchOffset = 1
            #expect(try context.fetch(limited).map { ($0 as! Ticker).symbol } == ["AAPL"])
        }
    }

    @Test("result types: IDs, dictionaries, count; prefetching", arguments: StoreKind.allCases)
    func resultTypes(kind: StoreKind) throws {
        let (_, context) = try Self.populated(kind)
        try context.performAndWait {
            let request = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "sector.name == 'Tech'"), sortDescriptors: [SortKey("symbol")])
            let ids = try context.fetchObjectIDs(request)
            #expect(ids.count == 3)
            let rows = try context.fetchDictionaries(request, properties: ["symbol", "sector.name"])
            #expect(rows.map { $0["symbol"] } == [.string("AAPL"), .string("F10"), .string("F2")])
            #expect(rows.allSatisfy { $0["sector.name"] == .string("Tech") })
            #expect(try context.count(for: request) == 3)
            context.reset()
            var prefetching = request
            prefetching.relationshipKeyPathsForPrefetching = ["sector", "tags"]
            prefetching.returnsObjectsAsFaults = false
            let objects = try context.fetch(prefetching)
            #expect(objects.allSatisfy { !$0.isFault })
            let sector = try objects[0].object(forKey: "sector")!
            #expect(context.prefetchedSnapshots[sector.objectID] != nil, "served without another query")
            #expect(sector["name"] == .string("Tech"))
            #expect(context.prefetchedSnapshots[sector.objectID] == nil)
        }
    }
}

@Suite("Batched fetches")
struct BatchedFetchTests {
    @Test("with a batch size, using one object loads its batch and nothing else", arguments: StoreKind.allCases)
    func batches(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        try context.performAndWait {
            for i in 0..<25 { let t = try context.insert(Ticker.self); t.symbol = "T\(i)" }
            try context.save()
            context.reset()
            var request = FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")])
            request.fetchBatchSize = 10
            let objects = try context.fetch(request)
            #expect(objects.map(\.isFault) == Array(repeating: false, count: 10) + Array(repeating: true, count: 15))
            _ = objects[12]["symbol"]
            #expect(objects[10..<20].allSatisfy { !$0.isFault })
            #expect(objects[20...].allSatisfy { $0.isFault })
        }
    }

    /// `count` tickers `T0`… each in its own sector `S0`…, saved, the context reset; and a
    /// request for them by symbol in batches of 3 prefetching `sector`.
    private func tickersWithOwnSectors(_ count: Int, kind: StoreKind) throws -> (ObjectContext, FetchRequest) {
        let context = try TestStore(kind).context()
        try context.performAndWait {
            for i in 0..<count {
                let sector = try context.insert(Sector.self)
                sector.name = "S\(i)"
                let t = try context.insert(Ticker.self)
                t.symbol = "T\(i)"
                t.sector = sector
            }
            try context.save()
            context.reset()
        }
        var request = FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")])
        request.fetchBatchSize = 3
        request.relationshipKeyPathsForPrefetching = ["sector"]
        return (context, request)
    }

    @Test("a batched fetch prefetches relationships per batch, as each batch is loaded, not for every result", arguments: StoreKind.allCases)
    func fetchPrefetchesPerBatch(kind: StoreKind) throws {
        let (context, request) = try tickersWithOwnSectors(7, kind: kind)
        try context.performAndWait {
            let tickers = try context.fetch(request)
            #expect(tickers.count == 7)
            let sector = try #require(tickers[0].entity.relationshipIndex("sector"))
            #expect(tickers[0..<3].allSatisfy { !$0.isFault } && tickers[3...].allSatisfy(\.isFault), "the first batch only")
            let firstSectors = Set(tickers[0..<3].compactMap { $0.toOne[sector] })
            #expect(Set(context.prefetchedSnapshots.keys) == firstSectors, "the first batch's sectors, and only they")
            // Using an object of the second batch loads that batch and its sectors.
            #expect(try tickers[4].value(forKey: "symbol") == .string("T4"))
            #expect(tickers[3..<6].allSatisfy { !$0.isFault } && tickers[6].isFault)
            let secondSectors = Set(tickers[3..<6].compactMap { $0.toOne[sector] })
            #expect(secondSectors.count == 3)
            #expect(Set(context.prefetchedSnapshots.keys) == firstSectors.union(secondSectors),
                    "the second batch's sectors came with it; the third batch's did not")
            #expect(try tickers[5].object(forKey: "sector")?["name"] == .string("S5"))
        }
    }

    @Test("a controller's batch also loads the request's prefetched relationships, for that batch only", arguments: StoreKind.allCases)
    func controllerBatchPrefetches(kind: StoreKind) throws {
        let (context, request) = try tickersWithOwnSectors(6, kind: kind)
        try context.performAndWait {
            let controller = try FetchedResultsController(fetchRequest: request, context: context)
            try controller.performFetch()
            // Held here: a context keeps unchanged objects only while someone holds them.
            let held = controller.snapshot.items[0].map { context.object(with: $0) }
            let first = controller.object(at: RowPath(section: 0, row: 1))
            #expect(first === held[1])
            #expect(held[0..<3].allSatisfy { !$0.isFault } && held[3...].allSatisfy(\.isFault), "one batch of three loaded")
            let sector = try #require(first.entity.relationshipIndex("sector"))
            let sectorIDs = held[0..<3].compactMap { $0.toOne[sector] }
            #expect(sectorIDs.count == 3)
            #expect(Set(context.prefetchedSnapshots.keys) == Set(sectorIDs), "the batch's sectors came with it, and only they")
            #expect(try first.object(forKey: "sector")?["name"] == .string("S1"))
        }
    }
}
