import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Deep and long predicates: deep nesting is a positioned error (never a stack overflow),
/// long IN lists and AND/OR chains run in SQLite and agree with the in-memory evaluator.
@Suite("Predicate limits: deep nesting, long lists and chains")
struct PredicateLimitsTests {
    let limit = ObjectPredicate.maximumNesting

    @Test("30,000 nested parentheses are refused at the column of the one too many")
    func deepParentheses() {
        let text = String(repeating: "(", count: 30_000) + "price > 1" + String(repeating: ")", count: 30_000)
        #expect(throws: QueryError.tooDeep(limit: limit, column: limit + 1)) { try ObjectPredicate(format: text) }
        #expect(QueryError.tooDeep(limit: limit, column: limit + 1).description == "nesting deeper than \(limit) at column \(limit + 1)")
    }

    @Test("50,000 ! and 10,000 NOT are refused at the column of the one too many")
    func deepNegation() {
        #expect(throws: QueryError.tooDeep(limit: limit, column: limit + 1)) {
            try ObjectPredicate(format: String(repeating: "!", count: 50_000) + "price > 1")
        }
        #expect(throws: QueryError.tooDeep(limit: limit, column: 4 * limit + 1)) {
            try ObjectPredicate(format: String(repeating: "NOT ", count: 10_000) + "price > 1")
        }
        #expect(throws: QueryError.tooDeep(limit: limit, column: limit + 1)) {
            try ObjectPredicate(format: String(repeating: "!(", count: 10_000) + "price > 1" + String(repeating: ")", count: 10_000))
        }
    }

    @Test("nesting at the limit parses, formats, and runs in both back ends", arguments: StoreKind.allCases)
    func atTheLimit(kind: StoreKind) throws {
        // The worst shape for SQL: every level a group (alternating OR and AND), a subquery at the bottom.
        var text = "ANY tags.label ==[c] 'x' OR name == nil"
        for level in 0..<(limit - 1) { text = (level % 2 == 0 ? "volume < \(level) AND (" : "price > \(level) OR (") + text + ")" }
        let predicate = try ObjectPredicate(format: "(" + text + ")")
        let deepNot = try ObjectPredicate(format: String(repeating: "NOT ", count: limit) + "price > 1")
        let mixed = try ObjectPredicate(format: String(repeating: "!(price > 2 OR ", count: limit / 2) + "volume < 5" + String(repeating: ")", count: limit / 2))
        let tooDeep = "((" + text + "))"
        let column = Array(tooDeep).indices.filter { Array(tooDeep)[$0] == "(" }[limit] + 1
        #expect(throws: QueryError.tooDeep(limit: limit, column: column)) { try ObjectPredicate(format: tooDeep) }
        for p in [predicate, deepNot, mixed] { #expect(try ObjectPredicate(format: p.description) == p) }
        let (context, all) = try populated(kind)
        try context.performAndWait {
            for p in [predicate, deepNot, mixed] {
                try expectParity(p, context: context, all: all)
            }
        }
    }

    @Test("a tree built in code deeper than the parser allows is refused by both back ends", arguments: StoreKind.allCases)
    func deepBuiltTree(kind: StoreKind) throws {
        var p = ObjectPredicate.comparison(PredicateComparison(.keyPath("price"), .greater, .constant(.integer(1))))
        for n in 0..<2_000 { p = n % 2 == 0 ? .not(p) : .and([p, .truePredicate]) }
        let (context, _) = try populated(kind)
        let predicate = p
        context.performAndWait {
            #expect(throws: QueryError.tooDeep(limit: limit, column: nil)) {
                try context.fetch(FetchRequest(entityName: "Ticker", predicate: predicate))
            }
            #expect(throws: QueryError.tooDeep(limit: limit, column: nil)) {
                try PredicateEvaluator(predicate, entity: context.model.entity(named: "Ticker")!, model: context.model)
            }
        }
    }

    @Test("IN with 998, 1,000 and 100,000 values runs and agrees with memory", arguments: StoreKind.allCases)
    func longInLists(kind: StoreKind) throws {
        let (context, all) = try populated(kind)
        try context.performAndWait {
            for count in [998, 1_000, 100_000] {
                let volumes = (0..<count).map { PredicateArgument.value(.integer(Int64($0 * 7))) }
                try expectParity(.comparison(PredicateComparison(.keyPath("volume"), .in, .list(volumes.map {
                    guard case .value(let v) = $0 else { fatalError() }
                    return .constant(v)
                }))), context: context, all: all, count: true)
            }
            // Mixed numbers (integer and real), strings, nil and options: the same semantics as short lists.
            var items: [Operand] = (0..<1_000).map { .constant(.double(Double($0) * 3 + 1_000)) }
            items += [.constant(.integer(21)), .constant(.double(4.5))]
            try expectParity(.comparison(PredicateComparison(.keyPath("price"), .in, .list(items))), context: context, all: all, count: true)
            var names: [Operand] = (0..<1_000).map { .constant(.string("name \($0) \"q\" \\ é")) }
            names += [.constant(.string("COMPANY 3")), .constant(.string("company 4")), .constant(.null)]
            for options in [ComparisonOptions(), [.caseInsensitive], [.caseInsensitive, .diacriticInsensitive]] {
                try expectParity(.comparison(PredicateComparison(.keyPath("name"), .in, .list(names), options: options)),
                                 context: context, all: all, count: true)
            }
            let parsed = try ObjectPredicate(format: "volume IN %@", arguments: [.list((0..<5_000).map { .integer(Int64($0 * 2 + 1)) })])
            try expectParity(parsed, context: context, all: all, count: true)
        }
    }

    @Test("AND/OR chains of 10,000 terms from the builder and the parser run and agree with memory", arguments: StoreKind.allCases)
    func longChains(kind: StoreKind) throws {
        let (context, all) = try populated(kind)
        try context.performAndWait {
            let terms = (0..<10_000).map { ObjectPredicate.comparison(PredicateComparison(.keyPath("volume"), .equal, .constant(.integer(Int64($0 * 3))))) }
            try expectParity(.or(terms), context: context, all: all, count: true)
            let negated = terms.map { ObjectPredicate.not($0) }
            try expectParity(.and(negated), context: context, all: all, count: true)
            let text = (0..<10_000).map { "volume != \($0 * 10)" }.joined(separator: " AND ")
            try expectParity(try ObjectPredicate(format: text), context: context, all: all, count: true)
            let orText = (0..<10_000).map { "volume == \($0 * 10)" }.joined(separator: " || ")
            try expectParity(try ObjectPredicate(format: orText), context: context, all: all, count: true)
        }
    }

    // MARK: Helpers

    /// 40 tickers with names, prices, volumes and a few nils.
    func populated(_ kind: StoreKind) throws -> (ObjectContext, [ManagedObject]) {
        let store = TestStore(kind)
        let context = try store.context()
        let all = try context.performAndWait { () throws -> [ManagedObject] in
            for n in 0..<40 {
                let t = try context.insert(Ticker.self)
                t.symbol = "T\(n)"
                t.name = n % 9 == 0 ? nil : (n % 2 == 0 ? "Company \(n)" : "COMPANY \(n)")
                t.price = Double(n) * 1.5
                t.volume = Int64(n * 5)
            }
            try context.save()
            return try context.fetch(FetchRequest(entityName: "Ticker"))
        }
        return (context, all)
    }

    /// The store and the in-memory evaluator select the same tickers (and, with `count`, some but not all).
    func expectParity(_ predicate: ObjectPredicate, context: ObjectContext, all: [ManagedObject], count: Bool = false,
                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let stored = Set(try context.fetch(FetchRequest(entityName: "Ticker", predicate: predicate)).map(\.objectID))
        let evaluator = try PredicateEvaluator(predicate, entity: context.model.entity(named: "Ticker")!, model: context.model)
        let inMemory = Set(all.filter(evaluator.evaluate).map(\.objectID))
        #expect(stored == inMemory, sourceLocation: sourceLocation)
        if count { #expect(!stored.isEmpty && stored.count < all.count, "\(stored.count) of \(all.count)", sourceLocation: sourceLocation) }
    }
}
