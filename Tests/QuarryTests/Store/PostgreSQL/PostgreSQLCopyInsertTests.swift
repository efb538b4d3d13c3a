import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A PostgreSQL save writes runs of new rows by binary `COPY` (at least
/// ``PostgreSQLSaveRows/copyThreshold`` rows) and shorter ones by a multi-row `INSERT`: every
/// row lands with its own values, key and shadow columns either way, and a row the server
/// refuses in the middle of a `COPY` leaves nothing behind.
@Suite("PostgreSQL saves: new rows by COPY or INSERT", .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLCopyInsertTests {
    @Test(arguments: [1, PostgreSQLSaveRows.copyThreshold - 1, PostgreSQLSaveRows.copyThreshold, 1_000])
    func everyRowIsStoredWithItsOwnValues(count: Int) throws {
        try PostgreSQLScratchStore(label: "copy").withStore { store in
            let sectorEntity = store.model.entity(named: "Sector")!, tickerEntity = store.model.entity(named: "Ticker")!
            var sectors = StoreChangeSet()
            sectors.inserts = [PostgreSQLScratchStore.insert(sectorEntity, ["name": .string("Tech")])]
            let sector = try store.save(sectors) { _ in .fail }.changes.inserted[0]
            var tickers = StoreChangeSet()
            for n in 0..<count {
                var values: [String: Value] = [:]
                values["symbol"] = .string("S\(n)")
                values["name"] = n % 2 == 0 ? Value.string("Zoë É\(n)") : Value.null
                values["price"] = .double(Double(n) / 4)
                values["volume"] = .integer(Int64(n) - 500)
                values["active"] = .bool(n % 3 == 0)
                values["listed"] = .date(Date(timeIntervalSinceReferenceDate: Double(n) * 86_400.5))
                let toOne: [String: ObjectID] = n % 3 == 0 ? ["sector": sector] : [:]
                tickers.inserts.append(PostgreSQLScratchStore.insert(tickerEntity, values, toOne: toOne))
            }
            let saved = try store.save(tickers) { _ in .fail }
            let ids = saved.changes.inserted
            #expect(ids.count == count)
            let stored = try store.snapshots(for: ids)
            for (n, id) in ids.enumerated() {
                let snapshot = try #require(stored[id])
                func value(_ name: String) -> Value { snapshot.values[tickerEntity.attributeIndex(name)!] }
                #expect(snapshot.version == 1)
                #expect(value("symbol") == .string("S\(n)"))
                #expect(value("name") == (n % 2 == 0 ? .string("Zoë É\(n)") : .null))
                #expect(value("price") == .double(Double(n) / 4))
                #expect(value("volume") == .integer(Int64(n) - 500))
                #expect(value("active") == .bool(n % 3 == 0))
                #expect(value("listed") == .date(Date(timeIntervalSinceReferenceDate: Double(n) * 86_400.5)))
                #expect(snapshot.toOne[tickerEntity.relationshipIndex("sector")!] == (n % 3 == 0 ? sector : nil))
            }
            // The shadow columns were written too: a case- and diacritic-insensitive match finds
            // exactly the rows whose name folds to it.
            let folded = StoreQuery(entity: tickerEntity, predicate: try ObjectPredicate(format: "name ==[cd] 'zoe e0'"))
            #expect(try store.objectIDs(for: folded) == [ids[0]])
        }
    }

    @Test("a uniqueness clash inside a COPY names the entity and key and writes nothing; the same rows save once it is gone")
    func aClashInsideACopyWritesNothing() throws {
        try PostgreSQLScratchStore(label: "copyclash").withStore { store in
            let sectorEntity = store.model.entity(named: "Sector")!
            // Row 40 of 100 repeats row 3's name.
            let names = (0..<100).map { $0 == 40 ? "n3" : "n\($0)" }
            var changes = StoreChangeSet()
            changes.inserts = names.map { PostgreSQLScratchStore.insert(sectorEntity, ["name": .string($0)]) }
            #expect(throws: StoreError.uniquenessViolation(entity: "Sector", keys: ["name"])) { try store.save(changes) { _ in .fail } }
            #expect(try store.count(for: StoreQuery(entity: sectorEntity)) == 0)
            #expect(try store.history(after: nil, limit: nil).transactions.isEmpty)
            changes.inserts[40] = PostgreSQLScratchStore.insert(sectorEntity, ["name": .string("n40")])
            let saved = try store.save(changes) { _ in .fail }
            #expect(saved.changes.inserted.count == 100)
            #expect(try store.count(for: StoreQuery(entity: sectorEntity)) == 100)
        }
    }

    @Test("a save with many history rows writes them by COPY, in order, each with its sequence number")
    func manyHistoryRows() throws {
        try PostgreSQLScratchStore(label: "copyhistory").withStore { store in
            let sectorEntity = store.model.entity(named: "Sector")!
            // Every other key: 200 inserted objects in 200 runs, so 200 history rows.
            var changes = StoreChangeSet()
            changes.inserts = (0..<400).map { PostgreSQLScratchStore.insert(sectorEntity, ["name": .string("s\($0)")]) }
            let inserted = try store.save(changes) { _ in .fail }.changes.inserted
            let committed = try store.snapshots(for: inserted)
            var deletes = StoreChangeSet()
            deletes.deletes = inserted.enumerated().filter { $0.offset % 2 == 0 }.map { (id: $0.element, version: committed[$0.element]!.version) }
            try store.save(deletes) { _ in .fail }
            let last = try #require(try store.history(after: nil, limit: nil).transactions.last)
            #expect(last.changes.count == 200)
            #expect(last.changes.map(\.objectID) == deletes.deletes.map(\.id))
            #expect(last.changes.allSatisfy { $0.type == .delete })
        }
    }
}
