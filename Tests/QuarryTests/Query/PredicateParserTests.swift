import Foundation
import Testing
@testable import Quarry
import QuarryDemo

@Suite("ObjectPredicate parser")
struct PredicateParserTests {
    func cmp(_ k: String, _ op: ComparisonOperator, _ v: Value, _ m: ComparisonModifier = .direct, _ o: ComparisonOptions = []) -> ObjectPredicate {
        .comparison(PredicateComparison(.keyPath(k), op, .constant(v), modifier: m, options: o))
    }

    @Test("comparison operators and their spellings")
    func operators() throws {
        let cases: [(String, ComparisonOperator)] = [
            ("==", .equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<", .less), ("<=", .lessOrEqual),
            ("=<", .lessOrEqual), (">", .greater), (">=", .greaterOrEqual), ("=>", .greaterOrEqual),
            ("BEGINSWITH", .beginsWith), ("endswith", .endsWith), ("CONTAINS", .contains), ("LIKE", .like), ("MATCHES", .matches),
        ]
        for (text, op) in cases {
            #expect(try ObjectPredicate(format: "price \(text) 5") == cmp("price", op, .integer(5)), "\(text)")
        }
    }

    @Test("string options [c], [d], [cd]")
    func options() throws {
        #expect(try ObjectPredicate(format: "name BEGINSWITH[c] 'ab'") == cmp("name", .beginsWith, .string("ab"), .direct, .caseInsensitive))
        #expect(try ObjectPredicate(format: "name ==[d] 'ab'") == cmp("name", .equal, .string("ab"), .direct, .diacriticInsensitive))
        #expect(try ObjectPredicate(format: "name LIKE[cd] 'a*'") == cmp("name", .like, .string("a*"), .direct, [.caseInsensitive, .diacriticInsensitive]))
    }

    @Test("literals: numbers, strings, booleans, nil")
    func literals() throws {
        #expect(try ObjectPredicate(format: "a == -3") == cmp("a", .equal, .integer(-3)))
        #expect(try ObjectPredicate(format: "a == 2.5e2") == cmp("a", .equal, .double(250)))
        #expect(try ObjectPredicate(format: "a == \"it's\"") == cmp("a", .equal, .string("it's")))
        #expect(try ObjectPredicate(format: "a == 'say \\'hi\\''") == cmp("a", .equal, .string("say 'hi'")))
        #expect(try ObjectPredicate(format: "a == YES") == cmp("a", .equal, .bool(true)))
        #expect(try ObjectPredicate(format: "a == false") == cmp("a", .equal, .bool(false)))
        #expect(try ObjectPredicate(format: "a == nil") == cmp("a", .equal, .null))
        #expect(try ObjectPredicate(format: "a != NULL") == cmp("a", .notEqual, .null))
    }

    @Test("AND, OR, NOT and parentheses, with precedence")
    func logic() throws {
        let a = cmp("a", .equal, .integer(1)), b = cmp("b", .equal, .integer(2)), c = cmp("c", .equal, .integer(3))
        #expect(try ObjectPredicate(format: "a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try ObjectPredicate(format: "(a == 1 || b == 2) && c == 3") == .and([.or([a, b]), c]))
        #expect(try ObjectPredicate(format: "NOT a == 1") == .not(a))
        #expect(try ObjectPredicate(format: "!(a == 1)") == .not(a))
        #expect(try ObjectPredicate(format: "TRUEPREDICATE") == .truePredicate)
        #expect(try ObjectPredicate(format: "falsepredicate") == .falsePredicate)
    }

    @Test("IN and BETWEEN with literal lists and arguments")
    func collections() throws {
        #expect(try ObjectPredicate(format: "a IN {1, 2}") == .comparison(PredicateComparison(.keyPath("a"), .in, .list([.constant(.integer(1)), .constant(.integer(2))]))))
        #expect(try ObjectPredicate(format: "a IN %@", ["x", "y"]) == .comparison(PredicateComparison(.keyPath("a"), .in, .list([.constant(.string("x")), .constant(.string("y"))]))))
        #expect(try ObjectPredicate(format: "a BETWEEN {1, 5}") == .comparison(PredicateComparison(.keyPath("a"), .between, .list([.constant(.integer(1)), .constant(.integer(5))]))))
        #expect(throws: QueryError.self) { try ObjectPredicate(format: "a BETWEEN 3") }
    }

    @Test("key paths, aggregates, @count, %K, %@ and $variables")
    func keyPathsAndArguments() throws {
        #expect(try ObjectPredicate(format: "sector.name == 'Tech'") == cmp("sector.name", .equal, .string("Tech")))
        #expect(try ObjectPredicate(format: "ANY tickers.price > 5") == cmp("tickers.price", .greater, .integer(5), .any))
        #expect(try ObjectPredicate(format: "ALL tickers.price > 5") == cmp("tickers.price", .greater, .integer(5), .all))
        #expect(try ObjectPredicate(format: "NONE tickers.price > 5") == cmp("tickers.price", .greater, .integer(5), .none))
        #expect(try ObjectPredicate(format: "SOME tickers.price > 5") == cmp("tickers.price", .greater, .integer(5), .any))
        #expect(try ObjectPredicate(format: "tickers.@count >= 2") == cmp("tickers.@count", .greaterOrEqual, .integer(2)))
        #expect(try ObjectPredicate(format: "%K == %@", "symbol", "ACME") == cmp("symbol", .equal, .string("ACME")))
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        #expect(try ObjectPredicate(format: "listed < %@", .value(.date(date))) == cmp("listed", .less, .date(date)))
        let template = try ObjectPredicate(format: "price > $LOW AND symbol == $SYM")
        #expect(template.variableNames == ["LOW", "SYM"])
        #expect(try template.substituting(["LOW": .integer(3), "SYM": .string("X")]) == .and([cmp("price", .greater, .integer(3)), cmp("symbol", .equal, .string("X"))]))
        #expect(throws: QueryError.unboundVariable("SYM")) { try template.substituting(["LOW": .integer(3)]) }
    }

    @Test("errors name the column and the token")
    func errors() {
        #expect(throws: QueryError.unexpected(token: "AN", column: 12, expected: "AND, OR or end")) {
            try ObjectPredicate(format: "price > 10 AN x")
        }
        let e = #expect(throws: QueryError.self) { try ObjectPredicate(format: "price > 10 AN x") }
        #expect(e?.description == "unexpected 'AN' at column 12, expected AND, OR or end")
        #expect(throws: QueryError.unexpected(token: "end", column: 8, expected: "a key path or value")) { try ObjectPredicate(format: "price >") }
        #expect(throws: QueryError.unterminatedString(column: 9)) { try ObjectPredicate(format: "name == 'abc") }
        #expect(throws: QueryError.missingArgument(column: 9)) { try ObjectPredicate(format: "price > %@") }
        #expect(throws: QueryError.extraArguments(count: 1)) { try ObjectPredicate(format: "price > 1", 2) }
        #expect(throws: QueryError.unexpected(token: "#", column: 7, expected: "a key, value or operator")) { try ObjectPredicate(format: "price # 1") }
        #expect(throws: QueryError.self) { try ObjectPredicate(format: "(price > 1") }
        #expect(throws: QueryError.self) { try ObjectPredicate(format: "name ==[x] 'a'") }
    }

    @Test("dictionary, array-of-formats and builder forms")
    func otherForms() throws {
        #expect(ObjectPredicate(dictionary: ["name": "test"]) == cmp("name", .equal, .string("test")))
        #expect(ObjectPredicate(dictionary: ["b": 1, "a": ["x", "y"]]) ==
                .and([.comparison(PredicateComparison(.keyPath("a"), .in, .list([.constant(.string("x")), .constant(.string("y"))]))), cmp("b", .equal, .integer(1))]))
        #expect(try ObjectPredicate(formats: ["a == 1", "b == 2"]) == .and([cmp("a", .equal, .integer(1)), cmp("b", .equal, .integer(2))]))
        #expect((PredicateKey("price") > .integer(10) && PredicateKey("name").beginsWith("A", .caseInsensitive)) ==
                .and([cmp("price", .greater, .integer(10)), cmp("name", .beginsWith, .string("A"), .direct, .caseInsensitive)]))
        #expect(!(PredicateKey("a") == .null) == .not(cmp("a", .equal, .null)))
    }

    @Test("formatting round-trips through the parser")
    func roundTrip() throws {
        let sources = [
            "price > 10 AND (name BEGINSWITH[cd] 'a' OR NOT volume == nil)",
            "ANY tickers.price BETWEEN {1, 2.5}", "symbol IN {'A', 'B\\'C'}", "tickers.@count == 0", "TRUEPREDICATE",
        ]
        for source in sources {
            let p = try ObjectPredicate(format: source)
            #expect(try ObjectPredicate(format: p.description) == p, "\(source) → \(p)")
        }
    }
}

@Suite("ObjectPredicate parser fuzzing")
struct PredicateFuzzTests {
    /// Random and mutated strings: the parser never crashes; it returns a predicate or a
    /// positioned error.
    @Test("random and mutated inputs give a predicate or a positioned error")
    func fuzz() {
        let seed = UInt64(ProcessInfo.processInfo.environment["QUARRY_FUZZ_SEED"] ?? "") ?? 0x5EED_0001
        var rng = FuzzRandom(seed: seed)
        let alphabet = Array("abcXYZ019 .,'\"()[]{}=!<>&|%@K$-_*?\\éß日本😀\nANDORNOTINANYALL")
        let corpus = [
            "price > 10 AND name BEGINSWITH[c] 'ab'", "ANY tickers.price BETWEEN {1, 2}", "sector.name IN {'a', 'b'}",
            "NOT (a == nil OR b != 3)", "tickers.@count >= 2", "%K == %@", "name LIKE[cd] 'a*b?'", "$X > 3",
        ]
        for i in 0..<5_000 {
            var input: String
            if i % 2 == 0 {
                input = String((0..<rng.below(40)).map { _ in alphabet[rng.below(alphabet.count)] })
            } else {
                var chars = Array(corpus[rng.below(corpus.count)])
                for _ in 0..<(1 + rng.below(4)) {
                    let at = rng.below(chars.count + 1)
                    switch rng.below(3) {
                    case 0: chars.insert(alphabet[rng.below(alphabet.count)], at: at)
                    case 1: if at < chars.count { chars.remove(at: at) }
                    default: if at < chars.count { chars[at] = alphabet[rng.below(alphabet.count)] }
                    }
                }
                input = String(chars)
            }
            do {
                _ = try ObjectPredicate(format: input, arguments: ["key", 1])
            } catch let error as QueryError {
                let text = error.description
                #expect(!text.isEmpty, "seed \(seed), input \(input.debugDescription)")
                if case .unexpected(_, let column, _) = error {
                    #expect(column >= 1 && column <= input.count + 1, "seed \(seed), input \(input.debugDescription): \(text)")
                }
            } catch {
                Issue.record("seed \(seed), input \(input.debugDescription): unexpected error type \(error)")
            }
        }
    }
}

/// The fuzz and property tests' generator.
typealias FuzzRandom = SplitMix64
