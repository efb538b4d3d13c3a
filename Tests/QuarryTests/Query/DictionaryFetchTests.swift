import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Dictionary fetches: values, groups, aggregates, having, distinct results — from the store's
/// rows, no managed objects, the same on every back end.
@Suite("Dictionary fetches and aggregates")
struct DictionaryFetchTests {
    /// Tickers in two sectors and one without: (symbol, sector, price, volume, active).
    static let rows: [(String, String?, Double?, Int64, Bool)] = [
        ("A", "tech", 10, 5, true), ("B", "tech", 30, 7, false), ("C", "energy", 20, 1, true),
        ("D", "energy", nil, 1, true), ("E", nil, 5, 100, true),
    ]

    func seeded(_ kind: StoreKind) throws -> (TestStore, ObjectContext) {
        let store = TestStore(kind)
        let context = try store.context("seed")
        try context.performAndWait {
            var sectors: [String: Sector] = [:]
            for (symbol, sector, price, volume, active) in Self.rows {
                let t = try context.insert(Ticker.self)
                t.symbol = symbol; t.volume = volume; t.active = active
                try t.setValue(price.map(Value.double) ?? .null, forKey: "price")
                if let sector {
                    if sectors[sector] == nil { let s = try context.insert(Sector.self); s.name = sector; sectors[sector] = s }
                    t.sector = sectors[sector]
                }
            }
            try context.save()
        }
        return (store, try store.context("reader"))
    }

    func fetch(_ context: ObjectContext, _ configure: (inout FetchRequest) throws -> Void) throws -> [[String: Value]] {
        var request = FetchRequest(entityName: "Ticker")
        try configure(&request)
        return try context.performAndWait { try context.fetchDictionaries(request) }
    }

    @Test("groups by a to-one key path with count, sum, avg, min, max and count(distinct); nil is a group of its own", arguments: StoreKind.allCases)
    func groups(kind: StoreKind) throws {
        let (_, context) = try seeded(kind)
        let rows = try fetch(context) {
            $0.propertiesToFetch = try FetchedProperty.list(parsing: "sector.name, count(), count(price), sum(volume), avg(price), min(symbol), max(price), count(distinct volume)")
            $0.propertiesToGroupBy = ["sector.name"]
        }
        #expect(rows == [
            ["sector.name": .null, "count()": .integer(1), "count(price)": .integer(1), "sum(volume)": .integer(100), "avg(price)": .double(5),
             "min(symbol)": .string("E"), "max(price)": .double(5), "count(distinct volume)": .integer(1)],
            ["sector.name": .string("energy"), "count()": .integer(2), "count(price)": .integer(1), "sum(volume)": .integer(2), "avg(price)": .double(20),
             "min(symbol)": .string("C"), "max(price)": .double(20), "count(distinct volume)": .integer(1)],
            ["sector.name": .string("tech"), "count()": .integer(2), "count(price)": .integer(2), "sum(volume)": .integer(12), "avg(price)": .double(20),
             "min(symbol)": .string("A"), "max(price)": .double(30), "count(distinct volume)": .integer(2)],
        ])
        // Having, the request's order, a window.
        let big = try fetch(context) {
            $0.propertiesToFetch = [.key("sector.name"), .count(), .aggregate(.sum, "volume")]
            $0.propertiesToGroupBy = ["sector.name"]
            $0.havingPredicate = try ObjectPredicate(format: "`count()` >= 2")
            $0.sortDescriptors = [SortKey("sum(volume)", ascending: false)]
            $0.fetchLimit = 1
        }
        #expect(big == [["sector.name": .string("tech"), "count()": .integer(2), "sum(volume)": .integer(12)]])
    }

    @Test("aggregates without groups are one row, also over no object; filters apply first", arguments: StoreKind.allCases)
    func wholeSet(kind: StoreKind) throws {
        let (_, context) = try seeded(kind)
        let all = try fetch(context) { $0.propertiesToFetch = [.count(), .aggregate(.sum, "price"), .aggregate(.avg, "volume")] }
        #expect(all == [["count()": .integer(5), "sum(price)": .double(65), "avg(volume)": .double(22.8)]])
        let none = try fetch(context) {
            $0.predicate = try ObjectPredicate(format: "price > 1000")
            $0.propertiesToFetch = [.count(), .aggregate(.sum, "volume"), .aggregate(.avg, "price"), .aggregate(.max, "symbol")]
        }
        #expect(none == [["count()": .integer(0), "sum(volume)": .null, "avg(price)": .null, "max(symbol)": .null]], "an empty set's sum and mean are nil")
    }

    @Test("plain and distinct values without loading objects; pending changes honoured for plain rows", arguments: StoreKind.allCases)
    func plainRows(kind: StoreKind) throws {
        let (_, context) = try seeded(kind)
        let active = try fetch(context) {
            $0.propertiesToFetch = [.key("active"), .key("sector.name")]
            $0.returnsDistinctResults = true
            $0.sortDescriptors = [SortKey("active")]
        }
        #expect(active.count == 4 && Set(active) == [
            ["active": .bool(false), "sector.name": .string("tech")], ["active": .bool(true), "sector.name": .string("tech")],
            ["active": .bool(true), "sector.name": .string("energy")], ["active": .bool(true), "sector.name": .null],
        ])
        #expect(active.first?["active"] == .bool(false))
        try context.performAndWait {
            #expect(context.registeredObjectCount == 0, "no object was made")
            let t = try context.insert(Ticker.self)
            t.symbol = "NEW"
            let rows = try context.fetchDictionaries(FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")]), properties: ["symbol"])
            #expect(rows.map { $0["symbol"] } == ["A", "B", "C", "D", "E", "NEW"].map { Value.string($0) })
        }
    }

    @Test("bad requests name the key or aggregate at fault", arguments: [StoreKind.sqlite])
    func refused(kind: StoreKind) throws {
        let (_, context) = try seeded(kind)
        func error(_ configure: (inout FetchRequest) throws -> Void) -> String {
            do { _ = try fetch(context, configure); return "accepted" } catch { return "\(error)" }
        }
        #expect(error { $0.propertiesToFetch = [.aggregate(.sum, "symbol")] } == "'sum(symbol)': symbol is String, which cannot be summed")
        #expect(error { $0.propertiesToFetch = [.key("symbol"), .count()] }.contains("'symbol' is neither grouped"))
        #expect(error { $0.propertiesToFetch = [.count()]; $0.propertiesToGroupBy = ["tags.label"] }.contains("goes through a to-many"))
        #expect(error { $0.propertiesToFetch = [.aggregate(.max, "colour")] }.contains("colour"))
        #expect(error { $0.propertiesToFetch = [.count()]; $0.havingPredicate = try ObjectPredicate(format: "price > 1") }.contains("having: the left side must be a column"))
        #expect(throws: QueryError.self) { try FetchedProperty(parsing: "median(price)") }
        #expect(throws: QueryError.self) { try FetchedProperty(parsing: "sum(distinct price)") }
        #expect(try FetchedProperty.list(parsing: "sector.name, count(), count(distinct volume), AVG(price)")
                == [.key("sector.name"), .count(), .aggregate(.countDistinct, "volume"), .aggregate(.avg, "price")])
    }

    @Test("an integer sum beyond 64 bits is an error, a mean of such integers is not", arguments: StoreKind.allCases)
    func overflow(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context("seed")
        try context.performAndWait {
            for symbol in ["X", "Y"] {
                let t = try context.insert(Ticker.self)
                t.symbol = symbol; t.volume = .max
            }
            try context.save()
        }
        #expect(throws: QueryError.invalidOperand("sum(volume) overflows a 64-bit integer")) {
            try fetch(context) { $0.propertiesToFetch = [.aggregate(.sum, "volume")] }
        }
        #expect(try fetch(context) { $0.propertiesToFetch = [.aggregate(.avg, "volume")] } == [["avg(volume)": .double(Double(Int64.max))]])
    }

    @Test("a to-one group key is grouped by the destination's key and named after: the same groups as through the join, also when two destinations share a name or have none", arguments: StoreKind.allCases)
    func groupsThroughTheDestinationKey(kind: StoreKind) throws {
        let (store, context) = try seeded(kind)
        let more = try store.context("more")
        try more.performAndWait {
            // Two tickers named "Twin" (their quotes make one group) and one "Solo"; ticker A has no name.
            func ticker(_ symbol: String, _ name: String?) throws -> Ticker {
                let t = try more.insert(Ticker.self); t.symbol = symbol; t.volume = 1
                try t.setValue(name.map(Value.string) ?? .null, forKey: "name")
                return t
            }
            let a = try more.fetch(FetchRequest(entityName: "Ticker", predicate: PredicateKey("symbol") == .string("A"))).first as! Ticker
            let quoted = [(try ticker("F", "Twin"), 2.0), (try ticker("F2", "Twin"), 3.0), (try ticker("G", "Solo"), 5.0), (a, 7.0)]
            for (n, (t, price)) in (quoted + [quoted[0]]).enumerated() {
                let q = try more.insert(Quote.self); q.price = price; q.time = Date(timeIntervalSinceReferenceDate: Double(n)); q.ticker = t
            }
            try more.save()
        }
        let model = context.model
        var request = FetchRequest(entityName: "Quote")
        request.propertiesToFetch = try FetchedProperty.list(parsing: "ticker.name, count(), sum(price)")
        request.propertiesToGroupBy = ["ticker.name"]
        #expect(try DictionaryFetch(request, model: model).groupKeyHops.count == 1, "ticker.name is read as the ticker's key")
        var joined = request
        joined.propertiesToFetch = try FetchedProperty.list(parsing: "ticker.name, count(), sum(price), count(ticker.name)")
        #expect(try DictionaryFetch(joined, model: model).groupKeyHops.isEmpty, "an aggregate of the key path reads it through the join")
        func rows(_ request: FetchRequest) throws -> [[String: Value]] {
            try context.performAndWait { try context.fetchDictionaries(request) }.map { row in row.filter { $0.key != "count(ticker.name)" } }
        }
        let grouped = try rows(request)
        #expect(grouped == (try rows(joined)))
        #expect(grouped.first { $0["ticker.name"] == .string("Twin") }?["count()"] == .integer(3), "both Twin tickers in one group: \(grouped)")
        #expect(grouped.first { $0["ticker.name"] == .string("Twin") }?["sum(price)"] == .double(7))
        #expect(grouped.first { $0["ticker.name"] == .null }?["count()"] == .integer(1), "\(grouped)")

        // Distinct names: grouped by the key alone, the same as through the join.
        request.predicate = try ObjectPredicate(format: "price >= 5")
        joined.predicate = request.predicate
        let distinct = try rows(request)
        #expect(distinct == (try rows(joined)) && distinct.count == 2, "\(distinct)")
    }
}
