import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Model-based property test of the live aggregate controller: random local edits, saves,
/// merged importer saves (inserts, deletes, value and sector changes) and sector renames.
/// After every step each controller's reported changes, applied to its old groups, must give
/// its new groups, which must equal the groups computed afresh from the context's objects
/// (the fresh-fetch accumulators), and, when the context has no unsaved changes, what
/// `fetchDictionaries` returns.
///
/// Reproduce with `QUARRY_AGGREGATE_SEED=<seed> swift test --filter AggregateControllerProperty`.
@Suite("Aggregate controller: reported changes rebuild the groups")
struct AggregateControllerPropertyTests {
    static let sectorNames = ["Energy", "Health", "Tech", "Utilities"]

    /// The requests kept live side by side: grouped with every aggregate, with `having`, and
    /// the one group of every object.
    static func requests() throws -> [FetchRequest] {
        var grouped = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "price >= 5"))
        grouped.propertiesToFetch = try FetchedProperty.list(parsing: "sector.name, count(), sum(volume), avg(price), min(price), max(price), count(distinct name), max(listed)")
        grouped.propertiesToGroupBy = ["sector.name"]
        grouped.sortDescriptors = [SortKey("count()", ascending: false)]
        var having = FetchRequest(entityName: "Ticker")
        having.propertiesToFetch = try FetchedProperty.list(parsing: "active, sector.name, count(), sum(price)")
        having.propertiesToGroupBy = ["active", "sector.name"]
        having.havingPredicate = try ObjectPredicate(format: "`count()` > 2")
        var total = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "volume < 50"))
        total.propertiesToFetch = try FetchedProperty.list(parsing: "count(), sum(volume), min(volume), max(price)")
        return [grouped, having, total]
    }

    /// The groups computed afresh from `context`'s objects (pending changes included) with the
    /// fresh-fetch accumulators, `having` and order.
    static func expected(_ request: FetchRequest, context: ObjectContext) throws -> [AggregateGroup] {
        let fetch = try DictionaryFetch(request, model: context.model)
        let entity = fetch.query.entity
        let plans = try fetch.keyPaths.map { try KeyPathPlan($0, entity: entity, model: context.model) }
        let objects = try context.fetch(FetchRequest(entityName: request.entityName, predicate: request.predicate))
        var keys: [[Value]] = []
        var members: [[Value]: [[Value]]] = [:]
        for o in objects {
            let values = plans.map { $0.singleValue(of: ObjectSubject(object: o)) }
            let key = Array(values[..<fetch.groupKeyCount])
            if members[key] == nil { keys.append(key) }
            members[key, default: []].append(values)
        }
        if fetch.groupKeyCount == 0 && keys.isEmpty { keys = [[]]; members[[]] = [] }
        var groups: [AggregateGroup] = []
        for key in keys {
            var row: [String: Value] = [:]
            for (p, property) in fetch.properties.enumerated() {
                switch property {
                case .key: row[property.name] = key[fetch.slots[p]!]
                case .aggregate(let function, _):
                    var accumulator = AggregateAccumulator(function, arithmetic: fetch.arithmetic[p])
                    for values in members[key]! {
                        if let slot = fetch.slots[p] { try accumulator.add(values[slot], name: property.name) } else { accumulator.addObject() }
                    }
                    row[property.name] = accumulator.result
                }
            }
            if let having = fetch.having, !having.evaluate(row) { continue }
            groups.append(AggregateGroup(key: key, values: row))
        }
        return groups.sorted { a, b in
            let o = fetch.order(a.values, b.values)
            if o != 0 { return o < 0 }
            for (x, y) in zip(a.key, b.key) where ValueOrdering.compare(x, y) != 0 { return ValueOrdering.compare(x, y) < 0 }
            return false
        }
    }

    @Test("random change sequences", arguments: StoreKind.allCases)
    func randomSequences(kind: StoreKind) throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["QUARRY_AGGREGATE_SEED"] ?? "") ?? 0xA66_0001
        var rng = FuzzRandom(seed: seed)
        let store = TestStore(kind)
        store.model.registerTickerClasses()
        let main = try store.context("main")
        let importer = try store.context("importer", policy: .mergeByPropertyObjectTrump)
        var next = 1000
        func fill(_ t: Ticker, _ rng: inout FuzzRandom) throws {
            t.price = Double(rng.below(40)) / 2
            try t.setValue(rng.below(8) == 0 ? .null : .integer(Int64(rng.below(100))), forKey: "volume")
            try t.setValue(rng.below(4) == 0 ? .null : .string(["a", "b", "c", "d"][rng.below(4)]), forKey: "name")
            try t.setValue(rng.below(3) == 0 ? .null : .bool(rng.below(2) == 0), forKey: "active")
            try t.setValue(rng.below(4) == 0 ? .null : .date(Date(timeIntervalSinceReferenceDate: Double(rng.below(50)) * 86_400)), forKey: "listed")
        }
        let sectorIDs = try importer.performAndWait { () -> [ObjectID] in
            let sectors = try Self.sectorNames.map { n -> Sector in let s = try importer.insert(Sector.self); s.name = n; return s }
            for i in 0..<60 {
                let t = try importer.insert(Ticker.self)
                t.symbol = "S\(i)"
                try fill(t, &rng)
                if rng.below(10) > 0 { t.sector = sectors[rng.below(sectors.count)] }
            }
            try importer.save()
            return sectors.map(\.objectID)
        }
        let requests = try Self.requests()
        try main.performAndWait {
            let controllers = try requests.map { try AggregateResultsController(fetchRequest: $0, context: main) }
            var recorders: [AggregateRecorder] = []
            for controller in controllers {
                try controller.performFetch()
                let recorder = AggregateRecorder(controller)
                controller.delegate = recorder
                recorders.append(recorder)
            }
            for step in 0..<120 {
                let op = rng.below(8)
                let context = "seed \(seed), step \(step), op \(op), \(kind)"
                switch op {
                case 0, 1:  // local edits in main
                    for _ in 0..<(1 + rng.below(3)) {
                        let tickers = try main.objects(of: Ticker.self)
                        if rng.below(4) == 0 || tickers.isEmpty {
                            let t = try main.insert(Ticker.self); t.symbol = "L\(next)"; next += 1
                            try fill(t, &rng)
                            t.sector = main.object(with: sectorIDs[rng.below(sectorIDs.count)]) as? Sector
                        } else {
                            let t = tickers[rng.below(tickers.count)]
                            switch rng.below(4) {
                            case 0: try fill(t, &rng)
                            case 1: t.sector = rng.below(5) == 0 ? nil : main.object(with: sectorIDs[rng.below(sectorIDs.count)]) as? Sector
                            case 2: main.delete(t)
                            default: t.price = Double(rng.below(40)) / 2
                            }
                        }
                    }
                    main.processPendingChanges()
                case 2:
                    try main.save()
                case 3:  // a sector renamed (names are unique): its objects' group key changes
                    let sector = main.object(with: sectorIDs[rng.below(sectorIDs.count)]) as! Sector
                    sector.name = Self.sectorNames[rng.below(Self.sectorNames.count)] + " \(step)"
                    try main.save()
                default:  // an importer save merged into main
                    let changes = try importer.performAndWait { () -> SaveChanges in
                        let tickers = try importer.objects(of: Ticker.self)
                        for _ in 0..<(1 + rng.below(8)) {
                            switch rng.below(5) {
                            case 0:
                                let t = try importer.insert(Ticker.self); t.symbol = "I\(next)"; next += 1
                                try fill(t, &rng)
                                t.sector = importer.object(with: sectorIDs[rng.below(sectorIDs.count)]) as? Sector
                            case 1 where !tickers.isEmpty:
                                let t = tickers[rng.below(tickers.count)]
                                if !t.isDeleted { importer.delete(t) }
                            case 2 where !tickers.isEmpty:
                                let t = tickers[rng.below(tickers.count)]
                                if !t.isDeleted { t.sector = importer.object(with: sectorIDs[rng.below(sectorIDs.count)]) as? Sector }
                            case 3 where !tickers.isEmpty, 4 where !tickers.isEmpty:
                                let t = tickers[rng.below(tickers.count)]
                                if !t.isDeleted { try fill(t, &rng) }
                            default: break
                            }
                        }
                        guard case .saved(let c) = try importer.save() else { return SaveChanges() }
                        return c
                    }
                    main.merge(fromDidSave: changes)
                }
                var failed = false
                for (n, (controller, recorder)) in zip(controllers, recorders).enumerated() {
                    let live = controller.groups
                    let fresh = try Self.expected(requests[n], context: main)
                    #expect(recorder.violations.isEmpty, "\(context), request \(n): \(recorder.violations)")
                    #expect(aggregateGroupsAgree(recorder.groups, live), "\(context), request \(n): groups rebuilt from the changes differ: \(recorder.groups) vs \(live); log \(recorder.log)")
                    #expect(aggregateGroupsAgree(live, fresh), "\(context), request \(n): live groups \(live) differ from fresh \(fresh)")
                    if !main.hasChanges {
                        let dictionaries = try main.fetchDictionaries(requests[n])
                        #expect(live.count == dictionaries.count && zip(live, dictionaries).allSatisfy { aggregateValuesAgree($0.values, $1) },
                                "\(context), request \(n): live groups differ from fetchDictionaries \(dictionaries)")
                    }
                    failed = failed || !recorder.violations.isEmpty || !aggregateGroupsAgree(live, fresh) || !aggregateGroupsAgree(recorder.groups, live)
                }
                if failed { break }
            }
            #expect(recorders[0].events > 40)
        }
    }
}
