import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("PostgreSQL MATCHES")
struct PostgreSQLMatchesTests {
    @Test("patterns are anchored, dots exclude line terminators, and ICU-only syntax is refused")
    func translation() throws {
        #expect(try PostgreSQLRegex.translate("a.c") == #"^(?:a[^\n\r\u0085\u2028\u2029]c)$"#)
        #expect(try PostgreSQLRegex.translate("[.a-z]+\\d{2}|x(?:y)") == #"^(?:[.a-z]+\d{2}|x(?:y))$"#)
        for pattern in ["\\bword\\b", "\\p{L}+", "(?i)abc", "(?<name>a)", "a++", "(?>a)", "[a[b]]", "\\Qa.b\\E", "\\x41"] {
            #expect(throws: QueryError.self, "\(pattern)") { try PostgreSQLRegex.translate(pattern) }
        }
    }

    @Test("MATCHES selects what the in-memory evaluator selects, with [c] and [d]",
          .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
    func matchesOnTheServer() throws {
        try PostgreSQLScratchStore(label: "matches").withStore { store in
            let model = store.model
            let ticker = model.entity(named: "Ticker")!
            let names = ["Apple", "apple", "Éclair", "e\u{301}clair", "line\nbreak", "file10", "東京"]
            var changes = StoreChangeSet()
            changes.inserts = names.enumerated().map { PostgreSQLScratchStore.insert(ticker, ["symbol": .string("T\($0.offset)"), "name": .string($0.element)]) }
            let ids = try store.save(changes) { _ in .fail }.changes.inserted
            for format in ["name MATCHES 'a.*'", "name MATCHES[c] 'a.*'", "name MATCHES[d] 'ecl.*'", "name MATCHES[cd] 'ECL.*'",
                           "name MATCHES 'line.break'", "name MATCHES 'file[0-9]+'", "name MATCHES '東.'", "NOT name MATCHES 'a.*'"] {
                let predicate = try ObjectPredicate(format: format)
                let found = try store.objectIDs(for: StoreQuery(entity: ticker, predicate: predicate))
                let evaluate = try SubjectPredicate<SnapshotSubject>.compile(predicate, entity: ticker, model: model)
                let snapshots = try store.snapshots(for: ids)
                let expected = ids.filter { evaluate(SnapshotSubject(snapshot: snapshots[$0]!)) }
                #expect(found == expected, "\(format)")
            }
            #expect(throws: QueryError.self) {
                try store.objectIDs(for: StoreQuery(entity: ticker, predicate: try ObjectPredicate(format: "name MATCHES '\\\\bA'")))
            }
        }
    }
}
