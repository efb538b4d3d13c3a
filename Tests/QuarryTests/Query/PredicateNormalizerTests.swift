import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// The normalized predicate (``ObjectPredicate/normalized``) selects exactly what the tree as
/// written selects, and long chains of one key path collapse to a few terms.
@Suite("Predicate normalization")
struct PredicateNormalizerTests {
    /// Chains of comparisons on a few key paths, so terms meet others they combine with:
    /// bounds of several kinds, `nil`, options, `IN`, `BETWEEN`, quantifiers.
    struct Generator {
        var rng: FuzzRandom
        mutating func pick<T>(_ xs: [T]) -> T { xs[rng.below(xs.count)] }
        mutating func chance(_ percent: Int) -> Bool { rng.below(100) < percent }

        mutating func value(_ key: String) -> Value {
            if chance(8) { return .null }
            switch key {
            case "price": return chance(20) ? .integer(Int64(rng.below(50))) : .double(Double(rng.below(200)) / 4)
            case "volume": return .integer(Int64(rng.below(100)))
            case "listed": return .date(Date(timeIntervalSinceReferenceDate: Double(rng.below(100)) * 86_400))
            case "active": return .bool(chance(50))
            case "tags.label": return .string(pick(PredicateParityTests.tags))
            case "sector.name": return .string(pick(PredicateParityTests.sectors))
            default: return PredicateParityTests.names[rng.below(PredicateParityTests.names.count)].map(Value.string) ?? .null
            }
        }

        mutating func comparison() -> ObjectPredicate {
            let key = pick(["price", "volume", "name", "sector.name", "listed", "active", "tags.label", "tags.label"])
            let modifier: ComparisonModifier = key == "tags.label" ? pick([.any, .all, .none]) : .direct
            let text = key == "name" || key == "sector.name" || key == "tags.label"
            let options: ComparisonOptions = text ? pick([[], [], [.caseInsensitive], [.caseInsensitive, .diacriticInsensitive]]) : []
            let op = pick([ComparisonOperator.equal, .equal, .notEqual, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual,
                           .greater, .in, .between])
            let rhs: Operand
            switch op {
            case .in: rhs = .list((0..<(1 + rng.below(3))).map { _ in .constant(value(key)) })
            case .between: rhs = .list([.constant(value(key)), .constant(value(key))])
            default: rhs = .constant(value(key))
            }
            return .comparison(PredicateComparison(.keyPath(key), op, rhs, modifier: modifier, options: options))
        }

        mutating func predicate(depth: Int = 0) -> ObjectPredicate {
            guard depth < 3, chance(60) else { return comparison() }
            switch rng.below(7) {
            case 0, 1, 2: return .and((0..<(2 + rng.below(6))).map { _ in predicate(depth: depth + 1) })
            case 3, 4, 5: return .or((0..<(2 + rng.below(6))).map { _ in predicate(depth: depth + 1) })
            default: return chance(20) ? pick([.truePredicate, .falsePredicate]) : .not(predicate(depth: depth + 1))
            }
        }
    }

    @Test("normalized predicates select the same objects as the tree as written, in memory and in SQLite")
    func sameResults() throws {
        let store = TestStore(.sqlite)
        let context = try store.context()
        var rng = FuzzRandom(seed: 0x5EED_F01D)
        try context.performAndWait {
            try PredicateParityTests.populate(context, rng: &rng)
            let entity = context.model.entity(named: "Ticker")!
            let all = try context.objects(ofEntity: "Ticker")
            var gen = Generator(rng: rng)
            var failures = 0, folded = 0
            for iteration in 0..<500 where failures < 5 {
                let predicate = gen.predicate()
                let asWritten = try SubjectPredicate<ObjectSubject>.compileThrowing(predicate, entity: entity, model: context.model, normalizing: false)
                let normalized = try SubjectPredicate<ObjectSubject>.compileThrowing(predicate.normalized, entity: entity, model: context.model, normalizing: false)
                let expected = try all.filter { try asWritten(ObjectSubject(object: $0)) }.map(\.objectID)
                let memory = try all.filter { try normalized(ObjectSubject(object: $0)) }.map(\.objectID)
                let sql = iteration % 2 == 0 ? Set(try context.fetchObjectIDs(FetchRequest(entityName: "Ticker", predicate: predicate))) : Set(expected)
                if predicate.normalized != predicate { folded += 1 }
                if memory != expected || sql != Set(expected) {
                    failures += 1
                    Issue.record("""
                        iteration \(iteration): \(predicate)
                          normalized: \(predicate.normalized)
                          as written \(expected.count), normalized \(memory.count), SQLite \(sql.count)
                        """)
                }
            }
            // The generator must exercise the rules, not only pass predicates through.
            #expect(folded > 100, "only \(folded) of 500 predicates changed")
        }
    }

    @Test("a 5,000-term AND of lower bounds is its tightest bound")
    func tightestBound() throws {
        let text = (0..<5_000).map { "price > \($0 % 50)" }.joined(separator: " AND ")
        #expect(try ObjectPredicate(format: text).normalized == ObjectPredicate(format: "price > 49"))
        let mixed = try ObjectPredicate(format: "price >= 3 AND price > 3 AND price < 9 AND price <= 8 AND price >= 2")
        #expect(mixed.normalized == (try ObjectPredicate(format: "price > 3 AND price <= 8")))
        // Under OR the loosest bound, >= before > on a tie.
        #expect((try ObjectPredicate(format: "price > 3 OR price >= 3 OR price > 7")).normalized == (try ObjectPredicate(format: "price >= 3")))
    }

    @Test("bounds of different kinds, options or quantifiers stay apart")
    func boundsThatStay() throws {
        for text in ["price > 1 AND price > 1.5", "name > 'a' AND name >[c] 'b'", "ANY tags.label > 'a' AND ANY tags.label > 'b'",
                     "price > nil AND price > 1", "price > 1 AND volume > 2"] {
            let p = try ObjectPredicate(format: text)
            #expect(p.normalized == p, "\(text)")
        }
    }

    @Test("a 5,000-term OR of equalities is one IN; an AND of inequalities one NOT IN")
    func equalitiesAndInequalities() throws {
        let or = try ObjectPredicate(format: (0..<5_000).map { "symbol == 'S\($0)'" }.joined(separator: " OR "))
        guard case .comparison(let c) = or.normalized, c.op == .in, case .list(let items) = c.rhs else {
            Issue.record("not one IN: \(or.normalized.description.prefix(200))")
            return
        }
        #expect(items.count == 5_000 && items.last == .constant(.string("S4999")))
        let and = try ObjectPredicate(format: "sector.name != 'X1' AND sector.name != nil AND sector.name != 'X1' AND price > 2")
        #expect(and.normalized == (try ObjectPredicate(format: "NOT sector.name IN {'X1', nil} AND price > 2")))
    }

    @Test("ORs of ANY, ANDs of ALL and NONE over one to-many are one quantified comparison")
    func quantifiers() throws {
        let any = try ObjectPredicate(format: (0..<1_000).map { "ANY quotes.price > \($0)" }.joined(separator: " OR "))
        #expect(any.normalized == (try ObjectPredicate(format: "ANY quotes.price > 0")))
        let all = try ObjectPredicate(format: "ALL quotes.price > 1 AND ALL quotes.price > 5")
        #expect(all.normalized == (try ObjectPredicate(format: "ALL quotes.price > 5")))
        let none = try ObjectPredicate(format: "NONE tags.label == 'a' AND NONE tags.label == 'b'")
        #expect(none.normalized == (try ObjectPredicate(format: "NONE tags.label IN {'a', 'b'}")))
    }

    @Test("overlapping BETWEENs joined by OR merge; flattening, duplicates, constants and NOT NOT")
    func structure() throws {
        let between = try ObjectPredicate(format: (0..<5_000).map { "price BETWEEN {\($0), \($0 + 1)}" }.joined(separator: " OR "))
        #expect(between.normalized == (try ObjectPredicate(format: "price BETWEEN {0, 5000}")))
        let gaps = try ObjectPredicate(format: "price BETWEEN {5, 6} OR price BETWEEN {0, 1} OR price BETWEEN {1, 2} OR price BETWEEN {9, 3}")
        #expect(gaps.normalized == (try ObjectPredicate(format: "price BETWEEN {0, 2} OR price BETWEEN {5, 6} OR price BETWEEN {9, 3}")))
        let nested = try ObjectPredicate(format: "(name == 'a' AND (volume == 1 AND TRUEPREDICATE)) AND (volume == 1 AND NOT NOT name == 'a')")
        #expect(nested.normalized == (try ObjectPredicate(format: "name == 'a' AND volume == 1")))
        #expect((try ObjectPredicate(format: "name == 'a' AND FALSEPREDICATE")).normalized == .falsePredicate)
        #expect((try ObjectPredicate(format: "name == 'a' OR NOT FALSEPREDICATE")).normalized == .truePredicate)
    }

    @Test("an AND of ORs that each bound one key path is led by the tightest bound, tightest ORs first")
    func hoistedBounds() throws {
        let chain = try ObjectPredicate(format: "(price > 3 OR name == 'a') AND volume == 1 AND (price > 7 OR name == 'b') AND (price >= 7 OR name == 'c')")
        #expect(chain.normalized == (try ObjectPredicate(format:
            "(price > 7 OR ((price > 7 OR name == 'b') AND (price >= 7 OR name == 'c') AND (price > 3 OR name == 'a'))) AND volume == 1")))
        let long = try ObjectPredicate(format: (0..<5_000).map { "(price > \($0) OR name BEGINSWITH 'A\($0)')" }.joined(separator: " AND "))
        guard case .or(let parts) = long.normalized, case .and(let ordered)? = parts.last else {
            Issue.record("not hoisted")
            return
        }
        #expect(parts.first == (try ObjectPredicate(format: "price > 4999")))
        #expect(ordered.first == (try ObjectPredicate(format: "price > 4999 OR name BEGINSWITH 'A4999'")) && ordered.count == 5_000)
    }

    @Test("an IN list SQLite's JSON cannot carry runs at any length (2,000 prices and an infinity)")
    func longListJSONCannotCarry() throws {
        let store = TestStore(.sqlite)
        let context = try store.context()
        try context.performAndWait {
            for n in 0..<30 {
                let t = try context.insert(Ticker.self)
                t.symbol = "T\(n)"
                t.price = Double(n * 3) + 0.5
            }
            try context.save()
            let prices = (0..<2_000).map { Operand.constant(.double(Double($0) + 0.5)) } + [.constant(.double(.infinity))]
            let fetched = try context.fetch(FetchRequest(entityName: "Ticker", predicate: .comparison(PredicateComparison(.keyPath("price"), .in, .list(prices)))))
            #expect(fetched.count == 30)
            let ored = ObjectPredicate.or(prices.map { .comparison(PredicateComparison(.keyPath("price"), .equal, $0)) })
            #expect(try context.fetch(FetchRequest(entityName: "Ticker", predicate: ored)).count == 30)
        }
    }

    @Test("string operators with a long pattern select the same rows in SQLite and in memory")
    func longPatterns() throws {
        let store = TestStore(.sqlite)
        let context = try store.context()
        let long = String(repeating: "ab", count: 40)
        try context.performAndWait {
            for (n, name) in ["x" + long + "y", long, "a" + long, String(long.dropLast()), "é" + long, nil].enumerated() {
                let t = try context.insert(Ticker.self)
                t.symbol = "T\(n)"
                t.name = name
            }
            try context.save()
            let entity = context.model.entity(named: "Ticker")!
            let all = try context.objects(ofEntity: "Ticker")
            for op in [ComparisonOperator.beginsWith, .endsWith, .contains, .like] {
                for pattern in [long, "*" + long + "*", String(repeating: "?", count: 80), "?" + long, "é" + long] {
                    let predicate = ObjectPredicate.comparison(PredicateComparison(.keyPath("name"), op, .constant(.string(pattern))))
                    let sql = Set(try context.fetchObjectIDs(FetchRequest(entityName: "Ticker", predicate: predicate)))
                    let evaluator = try PredicateEvaluator(predicate, entity: entity, model: context.model)
                    #expect(sql == Set(all.filter(evaluator.evaluate).map(\.objectID)), "\(op.rawValue) \(pattern)")
                }
            }
        }
    }

    @Test("LIKE on ASCII text agrees with matching by characters, a carriage return and many *s included")
    func likeMatching() {
        #expect(StringMatching.matches(.like, text: "a\r\nb", pattern: "a?b", options: []))
        #expect(!StringMatching.matches(.like, text: "a\r\nb", pattern: "a??b", options: []))
        let many = String(repeating: "*a", count: 5_000)
        #expect(!StringMatching.matches(.like, text: "Company 12", pattern: many, options: []))
        #expect(StringMatching.matches(.like, text: String(repeating: "a", count: 5_000), pattern: many, options: []))
        #expect(StringMatching.matches(.like, text: "Company 12", pattern: "*o*a*1?", options: []))
        // Against a reference matcher on random ASCII text and patterns.
        var rng = FuzzRandom(seed: 11)
        func reference(_ t: Substring, _ p: Substring) -> Bool {
            guard let first = p.first else { return t.isEmpty }
            if first == "*" { return reference(t, p.dropFirst()) || (!t.isEmpty && reference(t.dropFirst(), p)) }
            guard let c = t.first, first == "?" || first == c else { return false }
            return reference(t.dropFirst(), p.dropFirst())
        }
        for _ in 0..<2_000 {
            let text = String((0..<rng.below(8)).map { _ in "ab"[rng.below(2)] })
            let pattern = String((0..<rng.below(7)).map { _ in "ab*?"[rng.below(4)] })
            #expect(StringMatching.matches(.like, text: text, pattern: pattern, options: []) == reference(text[...], pattern[...]),
                    "\(text) LIKE \(pattern)")
        }
    }

    @Test("MATCHES keeps each pattern's own answer when patterns and [c] alternate")
    func regexAlternation() {
        for _ in 0..<3 {
            #expect(StringMatching.matches(.matches, text: "AB", pattern: "ab", options: [.caseInsensitive]))
            #expect(!StringMatching.matches(.matches, text: "AB", pattern: "ab", options: []))
            #expect(StringMatching.matches(.matches, text: "ab", pattern: "(a|b)(a|b)", options: []))
            #expect(!StringMatching.matches(.matches, text: "ab", pattern: "(a|b)", options: []))
        }
    }
}

private extension String {
    subscript(_ n: Int) -> Character { self[index(startIndex, offsetBy: n)] }
}
