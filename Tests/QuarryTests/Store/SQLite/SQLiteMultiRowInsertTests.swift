import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// A save writes new rows several a statement (runs of 64, 32, …, 1): every row lands with its
/// own values and key, whatever the run length, and a failure in the middle of a statement
/// still leaves nothing behind.
@Suite struct SQLiteMultiRowInsertTests {
    let dir = TemporaryDirectory()

    @Test(arguments: [1, 2, 63, 64, 65, 131, 1_000])
    func everyRowOfARunIsStoredWithItsOwnValues(count: Int) throws {
        let store = try SQLiteStore(url: dir.file("t.sqlite"), model: TestModels.tickers())
        let make = ChangeMaker(model: store.model)
        let sector = try store.insert([make.insert("Sector", ["name": .string("Tech")])])[0]
        let tickers = (0..<count).map { n in
            make.insert("Ticker", ["symbol": .string("S\(n)"), "price": .double(Double(n) / 4), "volume": .integer(Int64(n))],
                        toOne: n % 3 == 0 ? ["sector": sector] : [:])
        }
        let ids = try store.insert(tickers)
        #expect(ids.count == count)
        try inspect(dir.file("t.sqlite")) { db in
            let rows = try Row.fetchAll(db, sql: "SELECT Z_PK, Z_OPT, symbol, price, volume, sector FROM Ticker ORDER BY Z_PK")
            #expect(rows.count == count)
            for (n, row) in rows.enumerated() {
                let key: Int64 = try row.decode(forColumn: "Z_PK"), version: Int64 = try row.decode(forColumn: "Z_OPT")
                let symbol: String = try row.decode(forColumn: "symbol"), price: Double = try row.decode(forColumn: "price")
                let volume: Int64 = try row.decode(forColumn: "volume"), sectorKey: Int64? = try row.decode(forColumn: "sector")
                #expect(key == ids[n].primaryKey)
                #expect(version == 1)
                #expect(symbol == "S\(n)")
                #expect(price == Double(n) / 4)
                #expect(volume == Int64(n))
                #expect(sectorKey == (n % 3 == 0 ? sector.primaryKey : nil))
            }
        }
    }

    @Test func aUniquenessViolationInsideAMultiRowStatementWritesNothing() throws {
        let url = dir.file("t.sqlite")
        let store = try SQLiteStore(url: url, model: TestModels.tickers())
        let make = ChangeMaker(model: store.model)
        // Row 40 of a 64-row statement repeats row 3's name.
        let names = (0..<100).map { $0 == 40 ? "n3" : "n\($0)" }
        var changes = StoreChangeSet()
        changes.inserts = names.map { make.insert("Sector", ["name": .string($0)]) }
        #expect(throws: StoreError.uniquenessViolation(entity: "Sector", keys: ["name"])) { try store.save(changes) { _ in .fail } }
        let (rows, maxKey) = try inspect(url) { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Sector"),
             try Int.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ROOT = 'Sector'"))
        }
        #expect(rows == 0)
        #expect(maxKey == 0)
        // The store takes the same rows once the clash is gone.
        changes.inserts[40] = make.insert("Sector", ["name": .string("n40")])
        let saved = try store.save(changes) { _ in .fail }
        #expect(saved.changes.inserted.count == 100)
    }
}
