import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// `SUBQUERY(collection, $v, predicate).@count` (and `.@sum.key`, …): parsing, formatting,
/// variables, errors, and the same values in every store and in memory.
@Suite("SUBQUERY")
struct SubqueryTests {
    func cmp(_ k: String, _ op: ComparisonOperator, _ v: Value, _ m: ComparisonModifier = .direct, _ o: ComparisonOptions = []) -> ObjectPredicate {
        .comparison(PredicateComparison(.keyPath(k), op, .constant(v), modifier: m, options: o))
    }

    @Test("parses to a subquery operand whose key paths are relative to the element")
    func parses() throws {
        let p = try ObjectPredicate(format: "SUBQUERY(tickers, $t, $t.price > 100 AND $t.sector.name == 'x').@count > 3")
        let subquery = PredicateSubquery("tickers", variable: "t", where: .and([cmp("price", .greater, .integer(100)), cmp("sector.name", .equal, .string("x"))]))
        #expect(p == .comparison(PredicateComparison(.subquery(subquery), .greater, .constant(.integer(3)))))
        let sum = try ObjectPredicate(format: "SUBQUERY(tickers, $t, ANY $t.tags.label == 'x').@sum.volume >= 1")
        #expect(sum == .comparison(PredicateComparison(.subquery(PredicateSubquery("tickers", variable: "t", where: cmp("tags.label", .equal, .string("x"), .any),
                                                                                  .aggregate(.sum, attribute: "volume"))), .greaterOrEqual, .constant(.integer(1)))))
        #expect(try ObjectPredicate(format: "3 < subquery(tags, $g, $g.label BEGINSWITH[c] 'g').@count") ==
                .comparison(PredicateComparison(.constant(.integer(3)), .less, .subquery(PredicateSubquery("tags", variable: "g", where: cmp("label", .beginsWith, .string("g"), .direct, .caseInsensitive))))))
        let built = PredicateSubquery("tickers", variable: "t", where: PredicateKey("price") > .integer(100)) > .integer(3)
        #expect(built == (try ObjectPredicate(format: "SUBQUERY(tickers, $t, $t.price > 100).@count > 3")))
    }

    @Test("description writes the variable back and parses to an equal predicate")
    func roundTrip() throws {
        let sources = [
            "SUBQUERY(tickers, $t, $t.price > 100).@count > 3",
            "SUBQUERY(sector.tickers, $t, $t.sector.name == 'x' AND (ANY $t.tags.label == 'y' OR NOT $t.volume < 2)).@count == 0",
            "SUBQUERY(tickers, $t, SUBQUERY($t.tags, $g, $g.label BEGINSWITH[cd] 'g').@count > 0).@sum.volume > 1000000000.0",
            "SUBQUERY(tickers, $t, $t.price BETWEEN {1, $HIGH} AND $t.name IN {'a', $NAME}).@avg.price < 2.5",
            "NOT SUBQUERY(tags, $g, $g.`label` == 'a').@min.label == nil OR tickers.@max.listed > 5",
            "tickers.@sum.volume > 1e9 AND sector.tickers.@avg.price <= 10 AND tickers.@min.listed != nil",
        ]
        for source in sources {
            let p = try ObjectPredicate(format: source)
            #expect(try ObjectPredicate(format: p.description) == p, "\(source) → \(p)")
        }
        #expect(try ObjectPredicate(format: "SUBQUERY(tickers,$t,$t.price>100).@count>3").description == "SUBQUERY(tickers, $t, $t.price > 100).@count > 3")
    }

    static let parseErrors: [(format: String, error: QueryError)] = [
        ("SUBQUERY(tickers, $t, price > 100).@count > 3",
         .unexpected(token: "price", column: 23, expected: "a key path starting with $t (the SUBQUERY's variable), like $t.key")),
        ("SUBQUERY(tickers, $t, $t.price > 100) > 3",
         .unexpected(token: ">", column: 39, expected: ".@count (or .@sum, .@avg, .@min or .@max and a key) after SUBQUERY(…)")),
        ("SUBQUERY(tickers, $t, $u.price > 1).@count > 0",
         .unexpected(token: "$u", column: 23, expected: "a key path starting with $t (the SUBQUERY's variable)")),
        ("SUBQUERY(tickers, $t, SUBQUERY($t.tags, $g, $t.price > 1).@count > 0).@count > 0",
         .unexpected(token: "$t", column: 45, expected: "a key path starting with $g: an inner SUBQUERY reads its own elements only")),
        ("SUBQUERY(tickers, $t, $t > 1).@count > 0", .unexpected(token: "$t", column: 23, expected: "a key of the element after $t, like $t.key")),
        ("SUBQUERY(tickers, t, t.price > 1).@count > 0", .unexpected(token: "t", column: 19, expected: "a variable naming each element, like $t")),
        ("SUBQUERY(tickers, $t, SUBQUERY($t.tags, $t, $t.label == 'a').@count > 0).@count > 0",
         .unexpected(token: "$t", column: 41, expected: "a variable that no enclosing SUBQUERY uses")),
        ("SUBQUERY(1, $t, $t.price > 1).@count > 0", .unexpected(token: "1", column: 10, expected: "the key path of a to-many relationship to filter")),
        ("SUBQUERY(tickers, $t, $t.price > 1).@sum > 0", .unexpected(token: ">", column: 42, expected: "'.' and a key after @sum")),
        ("$t.price > 1", .unexpected(token: "$t", column: 1, expected: "a value: $t.key is a key path only inside SUBQUERY(…, $t, …)")),
    ]

    @Test("parse errors name the column and what was expected")
    func parseErrorsNameTheColumn() {
        for (format, error) in Self.parseErrors {
            #expect(throws: error, "\(format)") { try ObjectPredicate(format: format) }
        }
        let e = #expect(throws: QueryError.self) { try ObjectPredicate(format: "SUBQUERY(tickers, $t, price > 100).@count > 3") }
        #expect(e?.description == "unexpected 'price' at column 23, expected a key path starting with $t (the SUBQUERY's variable), like $t.key")
    }

    @Test("outer $VARIABLES inside a subquery are substituted; its own variable is not one")
    func variables() throws {
        let p = try ObjectPredicate(format: "SUBQUERY(tickers, $t, $t.price > $LOW AND SUBQUERY($t.tags, $g, $g.label == $TAG).@count > 0).@count >= $N")
        #expect(p.variableNames == ["LOW", "TAG", "N"])
        let bound = try p.substituting(["LOW": .integer(5), "TAG": .string("x"), "N": .integer(1)])
        #expect(bound == (try ObjectPredicate(format: "SUBQUERY(tickers, $t, $t.price > 5 AND SUBQUERY($t.tags, $g, $g.label == 'x').@count > 0).@count >= 1")))
        #expect(throws: QueryError.unboundVariable("TAG")) { try p.substituting(["LOW": .integer(5), "N": .integer(1)]) }
        // Built in code, the element's own variable inside is kept, not taken from the values.
        let own = ObjectPredicate.comparison(PredicateComparison(.subquery(PredicateSubquery("tickers", variable: "t",
            where: .comparison(PredicateComparison(.keyPath("price"), .equal, .variable("t"))))), .greater, .constant(.integer(0))))
        #expect(own.variableNames.isEmpty)
        #expect(try own.substituting(["t": .integer(3)]) == own)
    }

    @Test("a subquery reports its collection as the key path it reads, and counts as a level of nesting")
    func keyPathsAndNesting() throws {
        let p = try ObjectPredicate(format: "name == 'x' AND SUBQUERY(tickers, $t, $t.price > 1 OR $t.sector.name == 'y').@count > 0")
        #expect(p.keyPaths == ["name", "tickers"])
        #expect(p.nestingDepth == 3)
    }

    // MARK: Values

    /// Tech: T1 (price 150, volume 10, tags big+growth), T2 (price 120, volume 20, tag big),
    /// T3 (price 5, volume nil); Energy: E1 (price 200, volume 1); Empty: nothing.
    static func populated(_ kind: StoreKind) throws -> (TestStore, ObjectContext) {
        let store = TestStore(kind)
        let context = try store.context()
        try context.performAndWait {
            var sectors: [String: Sector] = [:]
            for name in ["Tech", "Energy", "Empty"] { let s = try context.insert(Sector.self); s.name = name; sectors[name] = s }
            var tags: [String: TickerTag] = [:]
            for label in ["big", "growth"] { let t = try context.insert(TickerTag.self); t.label = label; tags[label] = t }
            let rows: [(String, Double, Value, String, [String])] = [
                ("T1", 150, .integer(10), "Tech", ["big", "growth"]), ("T2", 120, .integer(20), "Tech", ["big"]),
                ("T3", 5, .null, "Tech", []), ("E1", 200, .integer(1), "Energy", []),
            ]
            for (symbol, price, volume, sector, labels) in rows {
                let t = try context.insert(Ticker.self)
                t.symbol = symbol
                t.price = price
                try t.setValue(volume, forKey: "volume")
                t.sector = sectors[sector]
                for label in labels { try t.add(tags[label]!, toKey: "tags") }
            }
            try context.save()
        }
        return (store, context)
    }

    static let cases: [(format: String, entity: String, expected: Set<String>)] = [
        ("SUBQUERY(tickers, $t, $t.price > 100).@count == 2", "Sector", ["Tech"]),
        ("SUBQUERY(tickers, $t, $t.price > 100).@count == 0", "Sector", ["Empty"]),
        ("SUBQUERY(tickers, $t, $t.sector.name == 'Energy').@count > 0", "Sector", ["Energy"]),
        ("SUBQUERY(tickers, $t, ANY $t.tags.label == 'growth').@count == 1", "Sector", ["Tech"]),
        ("SUBQUERY(tickers, $t, SUBQUERY($t.tags, $g, $g.label == 'big').@count > 0).@count == 2", "Sector", ["Tech"]),
        ("SUBQUERY(tickers, $t, $t.price > 100).@sum.volume == 30", "Sector", ["Tech"]),
        ("SUBQUERY(tickers, $t, $t.price > 1000).@sum.volume == 0", "Sector", ["Tech", "Energy", "Empty"]),
        ("SUBQUERY(tickers, $t, $t.price < 100).@avg.price == 5", "Sector", ["Tech"]),
        ("SUBQUERY(tickers, $t, $t.volume != nil).@max.price == 200", "Sector", ["Energy"]),
        ("SUBQUERY(tickers, $t, TRUEPREDICATE).@min.price == nil", "Sector", ["Empty"]),
        ("SUBQUERY(tickers, $t, $t.price > 100).@count == tickers.@count", "Sector", ["Energy", "Empty"]),
        ("SUBQUERY(tags, $g, $g.label BEGINSWITH[c] 'G').@count == 1", "Ticker", ["T1"]),
        ("SUBQUERY(sector.tickers, $s, $s.price > 100).@count == 2", "Ticker", ["T1", "T2", "T3"]),
        ("SUBQUERY(tickers, $t, $t.sector.name == 'Tech').@count == 2", "Tag", ["big"]),
    ]

    @Test("subqueries give the same objects in every store and in memory", arguments: StoreKind.allCases)
    func values(kind: StoreKind) throws {
        let (_, context) = try Self.populated(kind)
        try context.performAndWait {
            for (format, entityName, expected) in Self.cases {
                let predicate = try ObjectPredicate(format: format)
                let stored = try context.fetch(FetchRequest(entityName: entityName, predicate: predicate)).map(Self.label)
                #expect(Set(stored) == expected, "store: \(format)")
                let entity = try #require(context.model.entity(named: entityName))
                let evaluator = try PredicateEvaluator(predicate, entity: entity, model: context.model)
                let inMemory = try context.objects(ofEntity: entityName).filter { try evaluator.test($0) }.map(Self.label)
                #expect(Set(inMemory) == expected, "memory: \(format)")
            }
        }
    }

    /// A sector's name, a tag's label or a ticker's symbol.
    static func label(_ object: ManagedObject) -> String {
        let key = ["Sector": "name", "Tag": "label"][object.entity.name] ?? "symbol"
        if case .string(let s) = object[key] { return s }
        return "?"
    }

    static let refused: [(format: String, entity: String, message: String)] = [
        ("SUBQUERY(sector, $s, $s.name == 'x').@count > 0", "Ticker",
         "key path 'sector' on 'Ticker': SUBQUERY needs a to-many key path, and this is a to-one relationship"),
        ("SUBQUERY(price, $s, $s.name == 'x').@count > 0", "Ticker",
         "key path 'price' on 'Ticker': SUBQUERY needs a to-many key path, and this is an attribute"),
        ("SUBQUERY(tickers, $t, $t.nope == 1).@count > 0", "Sector", "entity 'Ticker' has no property 'nope'"),
        ("SUBQUERY(tickers, $t, $t.price > 'abc').@count > 0", "Sector", "cannot compare 'price' (Double) with the string 'abc' at column 34"),
        ("SUBQUERY(tickers, $t, $t.price > 1).@sum.name > 0", "Sector",
         "key path 'SUBQUERY(…).@sum.name' on 'Ticker': @sum needs a number attribute; 'name' is a string"),
        ("SUBQUERY(tickers, $t, $t.price > 1).@count == 'x'", "Sector",
         "cannot compare 'SUBQUERY(tickers, $t, $t.price > 1).@count' (Integer 64) with the string 'x' at column 47"),
        ("ANY SUBQUERY(tickers, $t, $t.price > 1).@count == 1", "Sector",
         "ANY needs a key path through a to-many relationship, but 'SUBQUERY(tickers, $t, $t.price > 1).@count' leads to one value (compare it without ANY) at column 1"),
        ("SUBQUERY(tickers, $t, $t.price > 1).@count IN {SUBQUERY(tickers, $u, $u.price > 2).@count}", "Sector", "lists may hold constants only"),
    ]

    @Test("invalid subqueries are refused with the key or column at fault, in the store and in memory", arguments: StoreKind.allCases)
    func refusals(kind: StoreKind) throws {
        let (_, context) = try Self.populated(kind)
        try context.performAndWait {
            for (format, entityName, message) in Self.refused {
                let predicate = try ObjectPredicate(format: format)
                let stored = #expect(throws: QueryError.self, "store: \(format)") {
                    try context.fetch(FetchRequest(entityName: entityName, predicate: predicate))
                }
                #expect(stored?.description == message, "store: \(format)")
                let memory = #expect(throws: QueryError.self, "memory: \(format)") {
                    try PredicateEvaluator(predicate, entity: context.model.entity(named: entityName)!, model: context.model)
                }
                #expect(memory?.description == message, "memory: \(format)")
            }
        }
    }

    @Test("in SQL, the condition's to-one joins are made inside the subquery, under aliases of their own")
    func joinsInsideTheSubquery() throws {
        let directory = TemporaryDirectory()
        let store = try SQLiteStore(url: directory.file("shape.sqlite"), model: TestModels.tickers())
        var compiler = store.queryCompiler()
        let predicate = try ObjectPredicate(format: "tickers.@sum.volume > 1 AND SUBQUERY(tickers, $t, $t.sector.name == 'x' AND ANY $t.tags.label == 'y').@count > 0")
        let select = try compiler.select(StoreQuery(entity: store.model.entity(named: "Sector")!, predicate: predicate), columns: ["t0.Z_PK"])
        let sql = select.sql.text
        #expect(select.joins.isEmpty, "no join outside: \(sql)")
        #expect(sql.contains("COALESCE((SELECT SUM("), "\(sql)")
        #expect(sql.contains("(SELECT COUNT(*) FROM"), "\(sql)")
        let leftJoin = try #require(sql.range(of: "LEFT JOIN"), "\(sql)")
        let subquery = try #require(sql.range(of: "(SELECT COUNT(*)"), "\(sql)")
        #expect(subquery.lowerBound < leftJoin.lowerBound, "\(sql)")
        let aliases = sql.matches(of: /\" (t[0-9]+)/).map { String($0.1) }
        #expect(Set(aliases).count == aliases.count, "every table alias is new: \(sql)")
    }

    @Test("a having predicate refuses a subquery")
    func havingRefuses() throws {
        let predicate = try ObjectPredicate(format: "SUBQUERY(tickers, $t, $t.price > 1).@count > 0")
        #expect(throws: QueryError.invalidOperand("having: a SUBQUERY reads objects, not result rows: filter with it in the request's predicate")) {
            try ResultRowFilter(predicate, columns: ["count()"])
        }
    }
}
