import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Property test: generated predicates with collection operators (`@sum`, `@avg`, `@min`,
/// `@max`, `@count`), `SUBQUERY`s (with to-one key paths, nested `ANY` and nested subqueries
/// inside) and `ANY`/`ALL`/`NONE` with every operator, on sectors, tags (many-to-many) and
/// tickers, over a store with empty collections, `nil`s and tickers without a sector. Each
/// store (SQLite, PostgreSQL when a test server is available, the in-memory store) must select
/// what the in-memory evaluator selects, in the same order.
///
/// Reproduce a failure with `QUARRY_PARITY_SEED=<seed> swift test --filter CollectionOperatorParity`.
@Suite("Collection operator and subquery parity")
struct CollectionOperatorParityTests {
    /// Sector names: the first five are ``PredicateParityTests/sectors`` themselves (which the
    /// generated `sector.name` comparisons name), the rest share their prefixes.
    static let sectorNames = (0..<30).map { i in
        i < 5 ? PredicateParityTests.sectors[i] : "\(PredicateParityTests.sectors[i % 5]) \(i)"
    }
    /// Sectors from this index on have no tickers.
    static let firstEmptySector = 24
    static let tagLabels = PredicateParityTests.tags + ["gold", "Green", "grün", "beta"]

    /// 30 sectors (six without tickers), 9 tags and 300 tickers with `nil` prices, volumes,
    /// listing dates and Booleans, some without a sector, some with volumes in the billions.
    static func populate(_ context: ObjectContext, rng: inout FuzzRandom) throws {
        var gen = PredicateParityTests.Generator(rng: rng)
        let sectors = try sectorNames.map { name -> Sector in let s = try context.insert(Sector.self); s.name = name; return s }
        let tags = try tagLabels.map { label -> TickerTag in let t = try context.insert(TickerTag.self); t.label = label; return t }
        for i in 0..<300 {
            let t = try context.insert(Ticker.self)
            t.symbol = "T\(i)"
            try t.setValue(gen.stringValue(), forKey: "name")
            try t.setValue(gen.chance(10) ? .null : .double(Double(gen.rng.below(200)) / 4), forKey: "price")
            let volume = Int64(gen.rng.below(100)) * (gen.chance(20) ? 50_000_000 : 1)
            try t.setValue(gen.chance(10) ? .null : .integer(volume), forKey: "volume")
            try t.setValue(gen.chance(15) ? .null : .bool(gen.chance(50)), forKey: "active")
            try t.setValue(gen.chance(15) ? .null : .date(Date(timeIntervalSinceReferenceDate: Double(gen.rng.below(100)) * 86_400)), forKey: "listed")
            // Skewed, so collections differ in size.
            if !gen.chance(10) { t.sector = sectors[min(gen.rng.below(firstEmptySector), gen.rng.below(firstEmptySector))] }
            for tag in tags where gen.chance(20) { try t.add(tag, toKey: "tags") }
        }
        try context.save()
        rng = gen.rng
    }

    @Test("generated collection operators and subqueries select the same objects in SQLite and in memory")
    func sqlite() throws {
        try Self.checkParity(TestStore(.sqlite), backEnd: "SQLite")
    }

    @Test("generated collection operators and subqueries select the same objects in the in-memory store and the evaluator")
    func memoryStore() throws {
        try Self.checkParity(TestStore(.memory), backEnd: "in-memory store")
    }

    @Test("generated collection operators and subqueries select the same objects on PostgreSQL and in memory",
          .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
    func postgreSQL() throws {
        try Self.checkParity(TestStore(.postgreSQL), backEnd: "PostgreSQL")
    }

    /// Populates `store`, then requires, for `iterations` generated predicates on sectors (half),
    /// tags and tickers, that the store selects what the in-memory evaluator selects.
    static func checkParity(_ store: TestStore, backEnd: String, iterations: Int = 1_000) throws {
        let seed = ParityHarness.seed(default: 0x5B_C0_11EC)
        let iterations = ParityHarness.iterations(default: iterations)
        let context = try store.context()
        var rng = FuzzRandom(seed: seed)
        try context.performAndWait {
            try populate(context, rng: &rng)
            let entities = ["Sector", "Tag", "Ticker"].map { context.model.entity(named: $0)! }
            let objects = try entities.map { try context.objects(ofEntity: $0.name) }
            let keys = [[SortKey("name")], [SortKey("label", ascending: false)], [SortKey("symbol")]]
            var gen = CollectionPredicateGenerator(rng: rng)
            var failures = 0
            // Cases that select some objects but not all: the generated predicates discriminate.
            var discriminating = 0
            for iteration in 0..<iterations where failures < 5 {
                let which = [0, 0, 1, 2][iteration % 4]
                let predicate: ObjectPredicate
                switch which {
                case 0: predicate = gen.combined { $0.sectorComparison() }
                case 1: predicate = gen.combined { $0.tagComparison() }
                default: predicate = gen.combined { $0.tickerComparison() }
                }
                guard let selected = ParityHarness.agreement(context, entity: entities[which], objects: objects[which], predicate: predicate,
                                                             keys: keys[which], backEnd: backEnd, seed: seed, iteration: iteration) else {
                    failures += 1
                    continue
                }
                if selected > 0 && selected < objects[which].count { discriminating += 1 }
            }
            #expect(failures > 0 || discriminating * 3 > iterations, "only \(discriminating) of \(iterations) cases selected some objects but not all")
        }
    }
}
