import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// The one query compiler writes each back end's SQL through its dialect: the same walk, the
/// engine's own spelling (the semantics are checked against the in-memory store by
/// ``PredicateParityTests``).
@Suite("SQL query compiler")
struct SQLQueryCompilerTests {
    let model = TestModels.tickers()
    var ticker: EntityDescription { model.entity(named: "Ticker")! }

    /// `sector.name ==[c] "Tech"`, by price descending, rows 3 to 7.
    var windowedQuery: StoreQuery {
        let predicate = ObjectPredicate.comparison(PredicateComparison(.keyPath("sector.name"), .equal, .constant(.string("Tech")),
                                                                       options: .caseInsensitive))
        return StoreQuery(entity: ticker, predicate: predicate, sortDescriptors: [SortKey("price", ascending: false)], limit: 5, offset: 2)
    }

    /// `volume IN {0, 1, …, 19}`: longer than the short form.
    var longListQuery: StoreQuery {
        let items = (0..<20).map { Operand.constant(.integer(Int64($0))) }
        return StoreQuery(entity: ticker, predicate: .comparison(PredicateComparison(.keyPath("volume"), .in, .list(items))))
    }

    func sqliteCompiler() -> SQLQueryCompiler<SQLiteDialect> {
        SQLQueryCompiler(dialect: SQLiteDialect(), layout: StoreLayout(model: model), model: model)
    }

    @Test("SQLite: folding through quarry_fold, ? placeholders, LIMIT before OFFSET")
    func sqliteSpelling() throws {
        var compiler = sqliteCompiler()
        let select = try compiler.select(windowedQuery, columns: ["t0.Z_PK"])
        let (text, arguments) = select.sql
        #expect(text == """
            SELECT t0.Z_PK FROM "Ticker" t0 LEFT JOIN "Sector" t1 ON t1."Z_PK" = t0."sector" \
            WHERE (quarry_fold(t1."name", 1) IS quarry_fold(?, 1)) ORDER BY t0."price" DESC, t0."Z_PK" LIMIT 5 OFFSET 2
            """)
        #expect(arguments == ["Tech"])
        #expect(select.countSQL.text == """
            SELECT COUNT(*) FROM (SELECT 1 FROM "Ticker" t0 LEFT JOIN "Sector" t1 ON t1."Z_PK" = t0."sector" \
            WHERE (quarry_fold(t1."name", 1) IS quarry_fold(?, 1)) LIMIT 5 OFFSET 2) c
            """)
    }

    @Test("SQLite: a long IN list is one JSON array parameter")
    func sqliteLongList() throws {
        var compiler = sqliteCompiler()
        let (text, arguments) = try compiler.select(longListQuery, columns: ["t0.Z_PK"]).sql
        #expect(text.hasSuffix(#"WHERE COALESCE(+(t0."volume") IN (SELECT value FROM json_each(?)), 0) ORDER BY t0."Z_PK""#))
        #expect(arguments == ["[" + (0..<20).map(String.init).joined(separator: ",") + "]"])
    }

    @Test("SQLite: an ordering against a constant reached from WHERE through AND and OR is the bare column; under NOT it keeps the general form")
    func sqliteIndexableOrderings() throws {
        var compiler = sqliteCompiler()
        let predicate = try ObjectPredicate(format: "(price > 5 OR volume <= 3) AND NOT (price < 1) AND name == nil AND ANY tags.label < 'm'")
        let (text, _) = try compiler.select(StoreQuery(entity: ticker, predicate: predicate), columns: ["t0.Z_PK"]).sql
        #expect(text.contains(#"t0."price" > ?"#) && text.contains(#"t0."volume" <= ?"#), "\(text)")
        #expect(text.contains(#"NOT COALESCE(+(t0."price") < ifnull(?, NULL), 0)"#), "\(text)")
        #expect(text.contains(#"(t0."name" IS NULL)"#), "\(text)")
        #expect(text.contains(#"COALESCE(+("#) && text.contains(#""label") < ifnull(?, NULL), 0)"#), "a quantifier's test keeps the general form: \(text)")
    }

    @Test("SQLite: a range on an indexed attribute, in its order, is read from its index")
    func sqliteRangeUsesTheIndex() throws {
        let store = TestStore(.sqlite)
        _ = try store.coordinator()
        var compiler = sqliteCompiler()
        let query = StoreQuery(entity: ticker, predicate: try ObjectPredicate(format: "symbol > 'M'"), sortDescriptors: [SortKey("symbol")], limit: 10)
        let (text, arguments) = try compiler.select(query, columns: ["t0.Z_PK"]).sql
        let plan = try DatabaseQueue(path: store.url.path).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + text, arguments: arguments).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("INDEX") && $0.contains("symbol>?") }, "\(plan)")
    }

    func postgreSQLCompiler() -> SQLQueryCompiler<PostgreSQLDialect> {
        let layout = PostgreSQLLayout(model: model)
        return SQLQueryCompiler(dialect: PostgreSQLDialect(layout: layout), layout: layout.base, model: model)
    }

    @Test("PostgreSQL: folding through shadow columns, $n placeholders, NULLS LAST descending")
    func postgreSQLSpelling() throws {
        var compiler = postgreSQLCompiler()
        let (text, _) = try compiler.select(windowedQuery, columns: [#"t0."Z_PK""#]).sql
        #expect(text == """
            SELECT t0."Z_PK" FROM "Ticker" t0 LEFT JOIN "Sector" t1 ON t1."Z_PK" = t0."sector" \
            WHERE (COALESCE(t1."name__F1", t1."name") IS NOT DISTINCT FROM ($1 COLLATE "C")) \
            ORDER BY t0."price" DESC NULLS LAST, t0."Z_PK" LIMIT 5 OFFSET 2
            """)
        let parameters = compiler.dialect.parameters
        #expect(parameters.count == 1)
        if case .text(let folded)? = parameters.first { #expect(folded == "tech") } else { Issue.record("\(parameters)") }
    }

    @Test("PostgreSQL: a long IN list is one array parameter per kind of value")
    func postgreSQLLongList() throws {
        var compiler = postgreSQLCompiler()
        let (text, _) = try compiler.select(longListQuery, columns: [#"t0."Z_PK""#]).sql
        #expect(text.hasSuffix(#"WHERE COALESCE(t0."volume" = ANY($1), false) ORDER BY t0."Z_PK""#))
        let parameters = compiler.dialect.parameters
        if case .integers(let values)? = parameters.first, parameters.count == 1 {
            #expect(values == Array(0..<20))
        } else {
            Issue.record("\(parameters)")
        }
    }
}
