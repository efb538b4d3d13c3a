import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// The SQLite store's one-statement batch update against the computed path (values computed in
/// Swift row by row) on an identical copy of the store: same counts, refusals, values, versions,
/// reported objects and changed keys, and history.
@Suite("Set-based batch update")
struct SetBasedBatchUpdateTests {
    /// An SQLite store seen only through ``PersistentStore``: batch updates take the computed path.
    final class ComputedOnly: ForwardingStore, @unchecked Sendable {
        // Immutable; the wrapped store is thread-safe.
        let base: SQLiteStore
        init(_ base: SQLiteStore) { self.base = base }
    }

    /// 120 tickers with NULL and extreme prices, in three sectors.
    static func seed(_ context: ObjectContext) throws {
        try context.performAndWait {
            let sectors = try ["tech", "energy", "health"].map { n -> Sector in let s = try context.insert(Sector.self); s.name = n; return s }
            var rng = FuzzRandom(seed: 42)
            for i in 0..<120 {
                let t = try context.insert(Ticker.self)
                t.symbol = "T\(i)"
                try t.setValue(rng.below(10) == 0 ? .null : .double([0.1, 1e300, 3.5, 1.0 / 3.0, 7][rng.below(5)] * Double(1 + rng.below(9))), forKey: "price")
                t.volume = Int64(rng.below(1000))
                if rng.below(6) > 0 { t.sector = sectors[rng.below(3)] }
            }
            try context.save()
        }
    }

    static let requests: [(predicate: String?, setting: String, setBased: Bool)] = [
        ("sector.name == 'tech'", "price = price * 1.1", true),
        (nil, "price = -(price / 3) * -2 + 0.5", true),
        ("volume > 500", "price = price * 1e10", true),          // 1e300 × 1e10 overflows: the computed path decides
        ("price < 5", "price = price - 100", true),              // below the minimum (0): refused, exactly as computed
        ("sector == nil", "price = 42, active = nil, listed = nil", true),
        (nil, "volume = volume + 1", false),                    // integer arithmetic: overflow is not SQL's to report
        (nil, "price = coalesce(price, 0) + 1", false),
        (nil, "price = price / volume", false),
        (nil, "price = price * 0", false),
        ("volume < 10", "symbol = 'SAME'", true),                // uniqueness is the index's (refused when more than one)
    ]

    /// Every ticker's values and version, by symbol.
    static func dump(_ store: PersistentStore) throws -> [String] {
        let entity = store.model.entity(named: "Ticker")!
        let ids = try store.objectIDs(for: StoreQuery(entity: entity, includesSubentities: true, predicate: nil, sortDescriptors: [SortKey("symbol")]))
        let rows = try store.snapshots(for: ids)
        return ids.map { "\(rows[$0]!.values) v\(rows[$0]!.version)" }
    }

    static func outcome(_ body: () throws -> BatchResult) -> String {
        do {
            let r = try body()
            let keys = r.changes.updated.map { r.changes.changedKeys[$0].map { $0.sorted() } ?? [] }
            // The set-based path reports IDs and changed keys only (it never reads the rows);
            // the values are compared in the stores.
            return "count \(r.count) ids \(r.changes.updated.map(\.primaryKey)) keys \(Set(keys))"
        } catch {
            return "refused: \(error)"
        }
    }

    @Test("each request gives the same result, values, versions and history on both paths")
    func samePathResults() throws {
        let model = TestModels.tickers()
        model.registerTickerClasses()
        let a = TestStore(.sqlite, model: model), b = TestStore(.sqlite, model: model)
        try Self.seed(try a.context("seed"))
        try Self.seed(try b.context("seed"))
        let setBased = try a.coordinator("set")
        guard let sqlite = try b.coordinator("computed").store as? SQLiteStore else { Issue.record("not SQLite"); return }
        let computed = StoreCoordinator(store: ComputedOnly(sqlite), name: "computed")
        var ran = 0
        for (predicate, setting, eligible) in Self.requests {
            let request = try BatchUpdateRequest(entityName: "Ticker", predicate: predicate.map { try ObjectPredicate(format: $0) }, setting: setting)
            let plan = try BatchUpdatePlan(request, model: model)
            #expect((SetBasedBatchUpdate(plan, now: Date()) != nil) == eligible, "\(setting): set-based \(!eligible ? "not " : "")expected")
            let left = Self.outcome { try setBased.execute(request) }
            let right = Self.outcome { try computed.execute(request) }
            #expect(left == right, "\(setting) where \(predicate ?? "all"):\n set-based: \(left)\n computed:  \(right)")
            #expect(try Self.dump(setBased.store) == Self.dump(computed.store), "\(setting): stores differ afterwards")
            if !left.hasPrefix("refused") { ran += 1 }
        }
        #expect(ran >= 6)
        let historyA = try (setBased.store as! SQLiteStore).history(after: nil).transactions.map { $0.changes.map { "\($0.objectID.primaryKey) \($0.type) \($0.changedKeys)" } }
        let historyB = try sqlite.history(after: nil).transactions.map { $0.changes.map { "\($0.objectID.primaryKey) \($0.type) \($0.changedKeys)" } }
        #expect(historyA == historyB)
    }
}
