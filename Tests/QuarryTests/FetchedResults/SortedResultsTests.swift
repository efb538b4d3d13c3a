import Foundation
import Testing
@testable import Quarry
import QuarryDemo
import QuarryTestSupport

/// The chunked index against a plain sorted array: random batches of removals and additions
/// (many chunks, splits, emptied chunks, re-chunking), renames, positions and runs.
@Suite("Fetched-results index")
struct SortedResultsTests {
    typealias Entry = SortedResults.Entry

    static func check(_ index: SortedResults, _ model: [Entry], _ note: String) -> Bool {
        if let violation = index.invariantViolation() {
            Issue.record("\(note): \(violation)")
            return false
        }
        let ids = index.allIDs
        if let i = Array(zip(ids, model)).firstIndex(where: { $0.0 != $0.1.id }) ?? (ids.count != model.count ? min(ids.count, model.count) : nil) {
            Issue.record("\(note): first difference at \(i) of \(model.count) (index holds \(ids.count)): index \(i < ids.count ? ids[i].description : "-") \(i < ids.count ? index.keys(at: i).description : ""), model \(i < model.count ? "\(model[i].id) \(model[i].keys)" : "-")")
            return false
        }
        // Every row's position through one batch lookup (the controller's path), every 7th
        // also through the single-ID one.
        let locations = index.locations(of: model.map(\.id))
        for (i, e) in model.enumerated() {
            let position = locations[i].map(index.index(of:))
            guard position == i, i % 7 != 0 || index.position(of: e.id) == i,
                  i % 5 != 0 || index.keys(at: i) == Array(e.keys), index.id(at: i) == e.id else {
                Issue.record("\(note): row \(i) \(e.id): position \(String(describing: position)) (alone: \(String(describing: index.position(of: e.id)))), keys \(index.keys(at: i)) vs \(e.keys)")
                return false
            }
        }
        #expect(index.position(of: ObjectID(entityIndex: 9, primaryKey: 1)) == nil)
        if model.count > 10 { #expect(index.ids(in: 3..<10) == model[3..<10].map(\.id)) }
        return true
    }

    @Test("random batches agree with a sorted array", arguments: [
        [SortKey("a")], [SortKey("b")], [SortKey("b", ascending: false)], [SortKey("s", ascending: false), SortKey("a")], [SortKey("d"), SortKey("s", comparison: .caseInsensitive)],
        [SortKey("m"), SortKey("b")], [SortKey("b"), SortKey("m", ascending: false)],
        // Strings never nil: the fences are searched by their words; long ones share first bytes.
        [SortKey("t")], [SortKey("t", ascending: false)], [SortKey("t"), SortKey("a", ascending: false)],
    ])
    func randomBatches(keys: [SortKey]) throws {
        var rng = SplitMix64(seed: UInt64(keys.count) &* 977 &+ (keys[0].ascending ? 5 : 6))
        func value(_ key: SortKey) -> Value {
            // "b" and "t" are never nil (the typed searches); the others sometimes are.
            if key.keyPath != "b", key.keyPath != "t", rng.below(12) == 0 { return .null }
            switch key.keyPath {
            case "a", "b": return .integer(Int64(rng.below(300)))
            case "d": return .double(Double(rng.below(50)) / 4)
            // Mixed kinds in one column: chunks built typed receive values of other kinds.
            case "m": return [.integer(Int64(rng.below(30))), .double(Double(rng.below(60)) / 2), .bool(rng.below(2) == 0),
                              .date(Date(timeIntervalSinceReferenceDate: Double(rng.below(30)))), .string(String(rng.below(30)))][rng.below(rng.below(4) == 0 ? 5 : 1)]
            case "t": return .string(["x", "apple", "applesa", "applesauce.", "applesauce.long", "ä", "ää-äää", ""][rng.below(8)] + String(rng.below(20)))
            default: return .string(["x", "X", "apple", "Apple", "b", "ä", ""][rng.below(7)] + String(rng.below(20)))
            }
        }
        var nextKey: Int64 = 1
        func entry() -> Entry {
            defer { nextKey += 1 }
            let id = rng.below(10) == 0 ? ObjectID.temporary(entityIndex: 0) : ObjectID(entityIndex: rng.below(4) == 0 ? 1 : 0, primaryKey: nextKey)
            return Entry(id: id, keys: keys.map(value))
        }
        let probe = SortedResults(sortKeys: keys)
        func sorted(_ xs: [Entry]) -> [Entry] { xs.sorted(by: probe.precedes) }
        /// `survivors` (in order) with `additions` merged in: the same as sorting both together,
        /// since `precedes` is a total order, without re-sorting the thousands that did not move.
        func merged(_ survivors: [Entry], _ additions: [Entry]) -> [Entry] {
            let added = sorted(additions)
            var result: [Entry] = []
            result.reserveCapacity(survivors.count + added.count)
            var a = 0
            for e in survivors {
                while a < added.count && probe.precedes(added[a], e) { result.append(added[a]); a += 1 }
                result.append(e)
            }
            result.append(contentsOf: added[a...])
            return result
        }

        var model = sorted((0..<3000).map { _ in entry() })
        let index = SortedResults(sortKeys: keys, entries: model)
        guard Self.check(index, model, "initial") else { return }
        for step in 0..<60 {
            // Drop some, re-key some (drop + add under the same ID), add new ones.
            let shape = rng.below(6)
            var drops = Set<Int>()
            let dropCount = shape == 0 ? model.count * 9 / 10 : (shape == 1 ? 0 : rng.below(min(200, model.count + 1)))
            while drops.count < min(dropCount, model.count) { drops.insert(rng.below(model.count)) }
            var additions: [Entry] = []
            for i in drops.sorted() where rng.below(2) == 0 { additions.append(Entry(id: model[i].id, keys: keys.map(value))) }
            let fresh = shape == 2 ? 1500 : rng.below(150)
            for _ in 0..<fresh { additions.append(entry()) }
            if shape == 3 {  // a run at the very end
                for _ in 0..<400 {
                    var e = entry()
                    e.keys = SortedResults.Keys(keys.map { k -> Value in
                        k.keyPath == "b" ? .integer(k.ascending ? 10_000 : -1)
                            : k.keyPath == "t" ? .string(k.ascending ? "zzzzzzzzzz" : "")
                            : k.ascending ? (k.keyPath == "a" ? .integer(10_000) : k.keyPath == "d" ? .double(1e9) : .string("zzz")) : .null
                    })
                    additions.append(e)
                }
            }
            let placed = index.apply(dropping: drops, adding: additions)
            model = merged(model.enumerated().filter { !drops.contains($0.offset) }.map(\.element), additions)
            for p in placed where model[p.index].id != p.id {
                Issue.record("step \(step): addition \(p.id) reported at \(p.index), holds \(model[p.index].id)")
                return
            }
            guard Self.check(index, model, "step \(step) shape \(shape)") else { return }
            if rng.below(4) == 0, !model.isEmpty {
                // Temporary IDs become permanent.
                var renames: [(index: Int, id: ObjectID)] = []
                for (i, e) in model.enumerated() where e.id.isTemporary && rng.below(2) == 0 {
                    let id = ObjectID(entityIndex: 0, primaryKey: nextKey)
                    nextKey += 1
                    renames.append((i, id))
                }
                // As the controller does it: drop the temporary entries, add the permanent ones.
                index.apply(dropping: Set(renames.map(\.index)), adding: renames.map { Entry(id: $0.id, keys: model[$0.index].keys) })
                for r in renames { model[r.index].id = r.id }
                model = sorted(model)
                guard Self.check(index, model, "step \(step) renames") else { return }
            }
        }
        // Emptied entirely, then refilled.
        index.apply(dropping: Set(model.indices), adding: [])
        guard Self.check(index, [], "emptied") else { return }
        model = sorted((0..<500).map { _ in entry() })
        index.apply(dropping: [], adding: model)
        _ = Self.check(index, model, "refilled")
    }

    @Test("sorting by an integer key is stable, for any keys and lengths")
    func sortedByKey() {
        var rng = SplitMix64(seed: 3)
        func stable(_ xs: [(key: Int, tag: Int)]) -> [Int] {
            xs.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element.tag)
        }
        let small = (0..<2000).map { i in (key: rng.below(50), tag: i) }
        #expect(small.sortedByKey(\.key).map(\.tag) == stable(small))
        // Keys spread over every byte, negative ones, the extremes; short arrays.
        let wide = (0..<3000).map { i in (key: Int(bitPattern: UInt(rng.next())) >> rng.below(64), tag: i) }
            + [(key: Int.min, tag: 3000), (key: Int.max, tag: 3001), (key: -1, tag: 3002), (key: 0, tag: 3003), (key: Int.min, tag: 3004)]
        #expect(wide.sortedByKey(\.key).map(\.tag) == stable(wide))
        for n in [1, 2, 47, 48, 49, 200] {
            let xs = (0..<n).map { i in (key: rng.below(8) - 4, tag: i) }
            #expect(xs.sortedByKey(\.key).map(\.tag) == stable(xs))
        }
        #expect([Int]().sortedByKey { $0 }.isEmpty)
        let keys = (0..<500).map { _ in rng.next() }
        #expect(radixOrder(keys) == Array(0..<500).sorted { (keys[$0], $0) < (keys[$1], $1) })
    }

    @Test("runs of equal first keys, across chunk boundaries")
    func runs() {
        let keys = [SortKey("s"), SortKey("a")]
        var entries: [Entry] = []
        var pk: Int64 = 1
        for (name, n) in [(Value.null, 70), (.string(""), 3), (.string("b"), 200), (.string("c"), 1), (.string("d"), 130)] {
            for i in 0..<n { entries.append(Entry(id: ObjectID(entityIndex: 0, primaryKey: pk), keys: [name, .integer(Int64(i))])); pk += 1 }
        }
        let index = SortedResults(sortKeys: keys, entries: entries)
        #expect(index.runs().map(\.start) == [0, 73, 273, 274])
        #expect(index.runs().map(\.key) == [.null, .string("b"), .string("c"), .string("d")])
    }

    @Test("typed key columns compare exactly like SortKey.compare")
    func typedCompare() {
        let values: [Value] = [.null, .integer(-3), .integer(0), .integer(7), .double(-1.5), .double(0), .double(.nan), .double(2.5),
                               .bool(false), .bool(true), .date(Date(timeIntervalSinceReferenceDate: 5)), .string(""), .string("a"), .string("B"),
                               .string("a10"), .string("a9"), .decimal(Decimal(string: "1.25")!), .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)]
        for comparison in [SortKey.StringComparison.binary, .caseInsensitive, .localizedStandard] {
            let key = SortKey("x", comparison: comparison)
            for a in values {
                let column = KeyColumn([a])
                for b in values {
                    #expect(column.compare(0, b, key: key) == key.compare(a, b), "\(a) vs \(b) (\(comparison))")
                }
            }
        }
        // A column that changes kind keeps every value.
        let mixed: [Value] = [.null, .null, .integer(4), .null, .string("x"), .double(1)]
        let column = KeyColumn(mixed)
        #expect((0..<mixed.count).map(column.value(at:)) == mixed)
        // ... and compares its nils (now plain values) like SortKey.compare.
        let key = SortKey("x")
        for (i, a) in mixed.enumerated() {
            for b in values { #expect(column.compare(i, b, key: key) == key.compare(a, b), "row \(i) \(a) vs \(b)") }
        }
    }
}
