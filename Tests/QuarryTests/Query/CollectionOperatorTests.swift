import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// `@sum`, `@avg`, `@min`, `@max` (and `@count`) over to-many key paths, in every store and in
/// the in-memory evaluator: their values on empty collections and `nil`s, their errors.
@Suite("Collection operators")
struct CollectionOperatorTests {
    /// Sectors: "Tech" (prices 10, 20 and nil; volumes 5, 7 and nil), "Empty" (no tickers),
    /// "Nulls" (one ticker with nothing but a symbol); plus a ticker with no sector.
    static func populated(_ kind: StoreKind) throws -> (TestStore, ObjectContext) {
        let store = TestStore(kind)
        let context = try store.context()
        try context.performAndWait {
            func sector(_ name: String) throws -> Sector { let s = try context.insert(Sector.self); s.name = name; return s }
            let tech = try sector("Tech"), nulls = try sector("Nulls")
            _ = try sector("Empty")
            let rows: [(String, Value, Value, Value, Sector?)] = [
                ("A", .double(10), .integer(5), .date(Date(timeIntervalSinceReferenceDate: 100)), tech),
                ("B", .double(20), .integer(7), .date(Date(timeIntervalSinceReferenceDate: 50)), tech),
                ("C", .null, .null, .null, tech),
                ("D", .null, .null, .null, nulls),
                ("E", .double(99), .integer(1), .null, nil),
            ]
            for (symbol, price, volume, listed, sector) in rows {
                let t = try context.insert(Ticker.self)
                t.symbol = symbol
                try t.setValue(price, forKey: "price")
                try t.setValue(volume, forKey: "volume")
                try t.setValue(listed, forKey: "listed")
                try t.setValue(.null, forKey: "active")
                t.sector = sector
            }
            try context.save()
        }
        return (store, context)
    }

    /// A sector's name or a ticker's symbol.
    /// A sector's name, a tag's label, a ticker's symbol.
    static func label(_ object: ManagedObject) -> String { SubqueryTests.label(object) }

    static let cases: [(format: String, entity: String, expected: Set<String>)] = [
        ("tickers.@sum.volume == 0", "Sector", ["Empty", "Nulls"]),
        ("tickers.@sum.volume == 12", "Sector", ["Tech"]),
        ("tickers.@sum.volume > 1e9", "Sector", []),
        ("tickers.@sum.price == 30", "Sector", ["Tech"]),
        ("tickers.@avg.price == nil", "Sector", ["Empty", "Nulls"]),
        ("tickers.@avg.price == 15", "Sector", ["Tech"]),
        ("tickers.@avg.volume == 6", "Sector", ["Tech"]),
        ("tickers.@max.price == nil", "Sector", ["Empty", "Nulls"]),
        ("tickers.@max.price == 20", "Sector", ["Tech"]),
        ("tickers.@min.price BETWEEN {5, 10}", "Sector", ["Tech"]),
        ("tickers.@min.listed < %@", "Sector", ["Tech"]),
        ("tickers.@max.listed == %@", "Sector", ["Tech"]),
        ("tickers.@max.active == nil", "Sector", ["Tech", "Empty", "Nulls"]),
        ("tickers.@count == 0", "Sector", ["Empty"]),
        ("tickers.@sum.volume IN {0, 12}", "Sector", ["Tech", "Empty", "Nulls"]),
        ("NOT tickers.@avg.price > 12", "Sector", ["Empty", "Nulls"]),
        ("sector.tickers.@sum.volume == 12", "Ticker", ["A", "B", "C"]),
        ("sector.tickers.@sum.volume == 0", "Ticker", ["D", "E"]),
        ("sector.tickers.@max.price == nil", "Ticker", ["D", "E"]),
    ]

    static let arguments: [String: [PredicateArgument]] = [
        "tickers.@min.listed < %@": [.value(.date(Date(timeIntervalSinceReferenceDate: 60)))],
        "tickers.@max.listed == %@": [.value(.date(Date(timeIntervalSinceReferenceDate: 100)))],
    ]

    @Test("values on empty collections and nils: @sum 0, @avg/@min/@max nil, in the store and in memory", arguments: StoreKind.allCases)
    func values(kind: StoreKind) throws {
        let (_, context) = try Self.populated(kind)
        try context.performAndWait {
            for (format, entityName, expected) in Self.cases {
                let predicate = try ObjectPredicate(format: format, arguments: Self.arguments[format] ?? [])
                let stored = try context.fetch(FetchRequest(entityName: entityName, predicate: predicate)).map(Self.label)
                #expect(Set(stored) == expected, "store: \(format)")
                let entity = try #require(context.model.entity(named: entityName))
                let evaluator = try PredicateEvaluator(predicate, entity: entity, model: context.model)
                let inMemory = try context.objects(ofEntity: entityName).filter { try evaluator.test($0) }.map(Self.label)
                #expect(Set(inMemory) == expected, "memory: \(format)")
            }
        }
    }

    static let refused: [(format: String, message: String)] = [
        ("tickers.@sum.nope > 1", "entity 'Ticker' has no property 'nope'"),
        ("tickers.@sum.name > 1", "key path 'tickers.@sum.name' on 'Sector': @sum needs a number attribute; 'name' is a string"),
        ("tickers.@avg.symbol > 1", "key path 'tickers.@avg.symbol' on 'Sector': @avg needs a number attribute; 'symbol' is a string"),
        ("tickers.@max.name == 'a'", "key path 'tickers.@max.name' on 'Sector': @max needs a number, date or Boolean attribute; 'name' is a string"),
        ("tickers.@sum.active > 1", "key path 'tickers.@sum.active' on 'Sector': @sum needs a number attribute; 'active' is a Boolean"),
        ("tickers.@sum.note > 1", "key path 'tickers.@sum.note' on 'Sector': @sum needs a stored attribute; 'note' is transient"),
        ("tickers.@sum.sector > 1", "key path 'tickers.@sum.sector' on 'Sector': @sum needs an attribute; 'sector' is a relationship"),
        ("tickers.@sum > 1", "key path 'tickers.@sum' on 'Sector': @sum must be followed by an attribute of the to-many's elements, like tickers.@sum.price"),
        ("tickers.@sum.price.x > 1", "key path 'tickers.@sum.price.x' on 'Sector': @sum takes one attribute and ends the key path"),
        ("name.@sum.price > 1", "key path 'name.@sum.price' on 'Sector': 'name' is an attribute, not a relationship"),
        ("tickers.@median.price > 1", "key path 'tickers.@median.price' on 'Sector': unknown collection operator '@median' (use @count, @sum, @avg, @min or @max)"),
        ("tickers.@sum.volume == 'many'", "cannot compare 'tickers.@sum.volume' (Integer 64) with the string 'many' at column 24"),
        ("tickers.@max.listed > 'soon'", "cannot compare 'tickers.@max.listed' (Date) with the string 'soon' at column 23"),
        ("tickers.@avg.price CONTAINS '1'", "CONTAINS needs text, but 'tickers.@avg.price' is a Double attribute at column 1"),
    ]

    @Test("invalid collection operators are refused with the key and reason, in the store and in memory", arguments: StoreKind.allCases)
    func refusals(kind: StoreKind) throws {
        let (_, context) = try Self.populated(kind)
        let entity = try #require(context.model.entity(named: "Sector"))
        try context.performAndWait {
            for (format, message) in Self.refused {
                let predicate = try ObjectPredicate(format: format)
                let stored = #expect(throws: QueryError.self, "store: \(format)") {
                    try context.fetch(FetchRequest(entityName: "Sector", predicate: predicate))
                }
                #expect(stored?.description == message, "store: \(format)")
                let memory = #expect(throws: QueryError.self, "memory: \(format)") {
                    try PredicateEvaluator(predicate, entity: entity, model: context.model)
                }
                #expect(memory?.description == message, "memory: \(format)")
            }
        }
    }

    @Test("an integer @sum beyond 64 bits is an error in every store and in memory, never a wrap; @avg is not", arguments: StoreKind.allCases)
    func overflow(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        try context.performAndWait {
            let sector = try context.insert(Sector.self)
            sector.name = "Huge"
            for symbol in ["H", "I"] {
                let t = try context.insert(Ticker.self)
                t.symbol = symbol
                t.volume = .max
                t.sector = sector
            }
            try context.save()
            let sum = try ObjectPredicate(format: "tickers.@sum.volume > 0")
            #expect(throws: (any Error).self, "store") { try context.fetch(FetchRequest(entityName: "Sector", predicate: sum)) }
            let evaluator = try PredicateEvaluator(sum, entity: try #require(context.model.entity(named: "Sector")), model: context.model)
            #expect(throws: QueryError.invalidOperand("tickers.@sum.volume overflows a 64-bit integer")) { try evaluator.test(sector) }
            let mean = try ObjectPredicate(format: "tickers.@avg.volume > 0")
            #expect(try context.fetch(FetchRequest(entityName: "Sector", predicate: mean)).count == 1)
        }
    }

    /// Funds holding decimal amounts and 16-bit share counts.
    static func fundModel() throws -> ManagedObjectModel {
        var b = ModelBuilder()
        b.entity("Fund") { e in
            e.attribute("name", .string)
            e.toMany("holdings", destination: "Holding", inverse: "fund")
        }
        b.entity("Holding") { e in
            e.attribute("amount", .decimal)
            e.attribute("shares", .integer16)
            e.toOne("fund", destination: "Fund", inverse: "holdings")
        }
        return try ManagedObjectModel(b.definition)
    }

    @Test("decimals sum and average as doubles, 16-bit integers as integers, in every store and in memory", arguments: StoreKind.allCases)
    func decimalsAndSmallIntegers(kind: StoreKind) throws {
        let context = try TestStore(kind, model: try Self.fundModel()).context()
        try context.performAndWait {
            let fund = try context.insertObject(entityName: "Fund")
            try fund.setValue(.string("F"), forKey: "name")
            for (amount, shares) in [("1", 3), ("0.25", 4), ("2.5", 5)] {
                let holding = try context.insertObject(entityName: "Holding")
                try holding.setValue(.decimal(Decimal(string: amount)!), forKey: "amount")
                try holding.setValue(.integer(Int64(shares)), forKey: "shares")
                try holding.setObject(fund, forKey: "fund")
            }
            let empty = try context.insertObject(entityName: "Fund")
            try empty.setValue(.string("E"), forKey: "name")
            try context.save()
            let entity = try #require(context.model.entity(named: "Fund"))
            let cases: [(String, Set<String>)] = [
                ("holdings.@sum.amount == 3.75", ["F"]), ("holdings.@avg.amount == 1.25", ["F"]), ("holdings.@max.amount == 2.5", ["F"]),
                ("holdings.@min.amount == 0.25", ["F"]), ("holdings.@sum.shares == 12", ["F"]), ("holdings.@avg.shares == 4", ["F"]),
                ("holdings.@sum.amount == 0 AND holdings.@sum.shares == 0 AND holdings.@min.amount == nil", ["E"]),
                ("SUBQUERY(holdings, $h, $h.amount < 2).@sum.amount == 1.25", ["F"]),
            ]
            func names(_ objects: [ManagedObject]) -> Set<String> {
                Set(objects.map { if case .string(let s) = $0["name"] { return s } else { return "?" } })
            }
            for (format, expected) in cases {
                let predicate = try ObjectPredicate(format: format)
                #expect(names(try context.fetch(FetchRequest(entityName: "Fund", predicate: predicate))) == expected, "store: \(format)")
                let evaluator = try PredicateEvaluator(predicate, entity: entity, model: context.model)
                #expect(names(try context.objects(ofEntity: "Fund").filter { try evaluator.test($0) }) == expected, "memory: \(format)")
            }
        }
    }

    @Test("sort keys, dictionary fetches and exports refuse collection operators, saying so")
    func otherUsesRefused() throws {
        let (_, context) = try Self.populated(.sqlite)
        context.performAndWait {
            let sort = #expect(throws: QueryError.self) {
                try context.fetch(FetchRequest(entityName: "Sector", sortDescriptors: [SortKey("tickers.@sum.volume")]))
            }
            #expect(sort?.description == "key path 'tickers.@sum.volume' on 'Sector': cannot sort by a collection operator (@count, @sum, @avg, @min, @max)")
            let dictionary = #expect(throws: QueryError.self) {
                try context.fetchDictionaries(FetchRequest(entityName: "Sector"), properties: ["name", "tickers.@sum.volume"])
            }
            #expect(dictionary?.description.contains("ends in a collection operator") == true, "\(String(describing: dictionary))")
            #expect(throws: ExportError.self) {
                try ResolvedExportColumns([ExportColumn("tickers.@max.price")], entity: context.model.entity(named: "Sector")!, model: context.model)
            }
        }
    }
}
