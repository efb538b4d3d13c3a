import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Comparisons of mismatched types are refused with the column of the operand at fault, by
/// both back ends; valid mixes (numbers with dates and Booleans, nil, arguments) still run.
@Suite("Predicate type checks")
struct PredicateTypeCheckTests {
    static let refused: [(format: String, arguments: [PredicateArgument], column: Int, message: String)] = [
        ("price > 'abc'", [], 9, "cannot compare 'price' (Double) with the string 'abc' at column 9"),
        ("name == 5", [], 9, "cannot compare 'name' (String) with the number 5 at column 9"),
        ("volume IN {1, 'x', 3}", [], 15, "cannot compare 'volume' (Integer 64) with the string 'x' at column 15"),
        ("listed < 'soon'", [], 10, "cannot compare 'listed' (Date) with the string 'soon' at column 10"),
        ("price > %@", ["abc"], 9, "cannot compare 'price' (Double) with the string 'abc' at column 9"),
        ("price CONTAINS '1'", [], 1, "CONTAINS needs text, but 'price' is a Double attribute at column 1"),
        ("name BEGINSWITH 3", [], 17, "BEGINSWITH needs a string, not the number 3 at column 17"),
        ("'abc' < price", [], 1, "cannot compare 'price' (Double) with the string 'abc' at column 1"),
        ("symbol == price", [], 11, "cannot compare 'symbol' (String) with 'price' (Double) at column 11"),
        ("ANY tags.label == 7", [], 19, "cannot compare 'tags.label' (String) with the number 7 at column 19"),
        ("price > 1 AND (volume < 'many')", [], 25, "cannot compare 'volume' (Integer 64) with the string 'many' at column 25"),
        ("ANY price > 1", [], 1, "ANY needs a key path through a to-many relationship, but 'price' leads to one value (compare it without ANY) at column 1"),
        ("ALL sector.name == 'x'", [], 1, "ALL needs a key path through a to-many relationship, but 'sector.name' leads to one value (compare it without ALL) at column 1"),
        ("name == 'a' OR NONE sector == nil", [], 16, "NONE needs a key path through a to-many relationship, but 'sector' leads to one value (compare it without NONE) at column 16"),
    ]

    static let accepted: [(String, [PredicateArgument])] = [
        ("price > 5", []), ("price > 5.5", []), ("price > %@", [.value(.decimal(Decimal(string: "2.5")!))]),
        ("volume BETWEEN {1, 10}", []), ("listed > 0", []), ("listed < %@", [.value(.date(Date()))]),
        ("active == 1", []), ("active == YES", []), ("name == nil", []), ("price != nil", []),
        ("tags.@count > 1", []), ("sector == nil", []), ("name BEGINSWITH 'A'", []), ("symbol IN %@", [["A", "B"]]),
        ("price == volume", []), ("name == symbol", []), ("ANY tags.label == 'x'", []), ("NONE sector.tickers.price > 1", []),
    ]

    @Test("mismatched comparisons are refused with the column, in the store and in memory", arguments: StoreKind.allCases)
    func refusedWithColumn(kind: StoreKind) throws {
        try forEach(Self.refused.map { ($0.format, $0.arguments) }, in: kind) { n, predicate, context, entity in
            let (format, _, column, message) = Self.refused[n]
            let error = #expect(throws: QueryError.self, "store: \(format)") {
                try context.fetch(FetchRequest(entityName: "Ticker", predicate: predicate))
            }
            #expect(error?.description == message, "store: \(format)")
            if case .mismatchedTypes(let c, _)? = error { #expect(c == column, "store: \(format)") }
            let memory = #expect(throws: QueryError.self, "memory: \(format)") {
                try PredicateEvaluator(predicate, entity: entity, model: context.model)
            }
            #expect(memory?.description == message, "memory: \(format)")
        }
    }

    /// Parses each of `formats` and calls `body` with its index, the predicate, a context on a
    /// fresh store of `kind` (on its queue) and the Ticker entity.
    func forEach(_ formats: [(String, [PredicateArgument])], in kind: StoreKind,
                 _ body: (Int, ObjectPredicate, ObjectContext, EntityDescription) throws -> Void) throws {
        let store = TestStore(kind)
        let context = try store.context()
        let entity = context.model.entity(named: "Ticker")!
        try context.performAndWait {
            for (n, (format, arguments)) in formats.enumerated() {
                try body(n, try ObjectPredicate(format: format, arguments: arguments), context, entity)
            }
        }
    }

    @Test("valid comparisons across numbers, dates, Booleans, nil and arguments still run", arguments: StoreKind.allCases)
    func validMixesRun(kind: StoreKind) throws {
        try forEach(Self.accepted, in: kind) { _, predicate, context, entity in
            _ = try context.fetch(FetchRequest(entityName: "Ticker", predicate: predicate))
            _ = try PredicateEvaluator(predicate, entity: entity, model: context.model)
        }
    }

    @Test("a predicate built in code is refused too, without a column")
    func builtInCode() throws {
        let model = TestModels.tickers()
        let predicate = ObjectPredicate.comparison(PredicateComparison(.keyPath("price"), .greater, .constant(.string("abc"))))
        #expect(throws: QueryError.mismatchedTypes(column: nil, reason: "cannot compare 'price' (Double) with the string 'abc'")) {
            try PredicateEvaluator(predicate, entity: model.entity(named: "Ticker")!, model: model)
        }
    }
}
