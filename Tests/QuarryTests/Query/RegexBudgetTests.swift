import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// `MATCHES` never hangs: a pattern that backtracks catastrophically stops at its step budget
/// with a typed error, in memory and in SQL (never a silent "no match").
@Suite("MATCHES under a step budget")
struct RegexBudgetTests {
    static let catastrophic = "(.*)*(.*)*(.*)*(.*)*(.*)*(.*)*z"
    static let text = String(repeating: "a", count: 30)

    @Test("a catastrophic pattern on 30 characters ends with regexTooCostly naming the pattern")
    func stringMatching() {
        #expect(throws: QueryError.regexTooCostly(pattern: Self.catastrophic)) {
            try StringMatching.match(.matches, text: Self.text, pattern: Self.catastrophic, options: [])
        }
        #expect(throws: QueryError.regexTooCostly(pattern: Self.catastrophic)) {
            try StringMatching.match(.matches, text: Self.text, pattern: Self.catastrophic, options: [.caseInsensitive])
        }
        #expect(QueryError.regexTooCostly(pattern: Self.catastrophic).description.hasPrefix("regular expression /\(Self.catastrophic)/ exceeded"))
        #expect(QueryError(sqliteMessage: QueryError.regexTooCostly(pattern: "a/b").description) == .regexTooCostly(pattern: "a/b"))
    }

    @Test("ordinary patterns still match whole strings, also long ones")
    func ordinaryPatterns() throws {
        #expect(try StringMatching.match(.matches, text: Self.text, pattern: "a+", options: []))
        #expect(try !StringMatching.match(.matches, text: Self.text + "b", pattern: "a+", options: []))
        #expect(try StringMatching.match(.matches, text: "File10", pattern: "file[0-9]+", options: [.caseInsensitive]))
        let long = String(repeating: "ab", count: 50_000) + "z"
        #expect(try StringMatching.match(.matches, text: long, pattern: "(ab)*z", options: []))
        #expect(try StringMatching.match(.matches, text: long, pattern: ".*z", options: []))
        #expect(!StringMatching.isValidRegex("("))
    }

    @Test("the in-memory evaluator reports the overrun", arguments: StoreKind.allCases)
    func inMemoryEvaluator(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context()
        try context.performAndWait {
            let t = try context.insert(Ticker.self)
            t.symbol = "A"
            t.name = Self.text
            let predicate = try ObjectPredicate(format: "name MATCHES %@", .value(.string(Self.catastrophic)))
            let evaluator = try PredicateEvaluator(predicate, entity: t.entity, model: context.model)
            #expect(throws: QueryError.regexTooCostly(pattern: Self.catastrophic)) { try evaluator.test(t) }
            #expect(!evaluator.evaluate(t))
        }
    }

    @Test("a fetch with a catastrophic MATCHES fails with regexTooCostly in the stores that run ICU; PostgreSQL answers it without backtracking", arguments: StoreKind.allCases)
    func storeFetch(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context()
        try context.performAndWait {
            for (n, name) in ["short", Self.text].enumerated() {
                let t = try context.insert(Ticker.self)
                t.symbol = "T\(n)"
                t.name = name
            }
            try context.save()
            context.reset()
            let request = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "name MATCHES '\(Self.catastrophic)'"))
            if kind == .postgreSQL {
                // PostgreSQL's regular-expression engine (Spencer's, a DFA/NFA hybrid) does not
                // backtrack: the pattern that runs ICU out of its budget is answered at once,
                // with the answer an unbounded ICU would give (nothing ends in "z").
                #expect(try context.fetch(request).isEmpty)
                #expect(try context.count(for: request) == 0)
            } else {
                #expect(throws: QueryError.regexTooCostly(pattern: Self.catastrophic)) { try context.fetch(request) }
                #expect(throws: QueryError.regexTooCostly(pattern: Self.catastrophic)) { try context.count(for: request) }
            }
            let fine = try context.fetch(FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: "name MATCHES 'a+'")))
            #expect(fine.map(\.objectID).count == 1)
        }
    }
}
