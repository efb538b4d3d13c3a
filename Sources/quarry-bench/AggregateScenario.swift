import Foundation
import GRDBSQLite
import Quarry
import QuarryDemo

/// Scenario `aggregate`: count, sum of volume and mean price per sector (11 groups) over n demo
/// tickers (default 1,000,000) — the raw `SELECT s.name, count(*), sum(t.volume), avg(t.price)
/// FROM Ticker t LEFT JOIN Sector s … GROUP BY s.name` stepped through SQLite's C API against
/// `fetchDictionaries` with `propertiesToGroupBy = ["sector.name"]`; best of `rounds` (3) each,
/// and the two results checked equal. `ratio aggregate` is the raw query's time over the fetch's.
func runAggregateScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let rounds = max(1, args.int("rounds", default: 3))
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("demo.sqlite")
    let model = try DemoModel.make()
    let seeding = try measure { try DemoSeeder(coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: model))).seed(rows: n) }
    print("aggregate: count(), sum(volume), avg(price) per sector.name over \(n) demo tickers; seeded in \(String(format: "%.1f", seeding)) s; best of \(rounds)")

    let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: model)), name: "reader")
    var request = FetchRequest(entityName: "Ticker")
    request.propertiesToFetch = [.key("sector.name"), .count(), .aggregate(.sum, "volume"), .aggregate(.avg, "price")]
    request.propertiesToGroupBy = ["sector.name"]
    var fetched: [[String: Value]] = []
    var quarry = Double.infinity
    for _ in 0..<rounds {
        quarry = min(quarry, try measure { fetched = try context.performAndWait { try context.fetchDictionaries(request) } })
    }

    let db = try RawDatabase(url: url)
    let select = try db.prepare("""
        SELECT s.name, count(*), sum(t.volume), avg(t.price) FROM Ticker t LEFT JOIN Sector s ON s.Z_PK = t.sector GROUP BY s.name
        """)
    var raw = Double.infinity
    var rawRows: [String: (Int64, Int64)] = [:]
    for _ in 0..<rounds {
        raw = min(raw, measure {
            rawRows = [:]
            while sqlite3_step(select) == SQLITE_ROW {
                let name = sqlite3_column_text(select, 0).map { String(cString: $0) } ?? "(nil)"
                rawRows[name] = (sqlite3_column_int64(select, 1), sqlite3_column_int64(select, 2))
            }
            sqlite3_reset(select)
        })
    }
    sqlite3_finalize(select)
    var quarryRows: [String: (Int64, Int64)] = [:]
    for row in fetched {
        guard case .integer(let count) = row["count()"], case .integer(let volume) = row["sum(volume)"] else { continue }
        if case .string(let name) = row["sector.name"] { quarryRows[name] = (count, volume) } else { quarryRows["(nil)"] = (count, volume) }
    }
    guard quarryRows.count == rawRows.count, rawRows.allSatisfy({ entry in quarryRows[entry.key].map { $0 == entry.value } ?? false }) else {
        throw BenchError.check("the fetch's groups \(quarryRows.sorted { $0.key < $1.key }) differ from the raw GROUP BY's \(rawRows.sorted { $0.key < $1.key })")
    }
    report("raw GROUP BY", n: n, seconds: raw)
    report("fetchDictionaries grouped", n: n, seconds: quarry)
    print("  \(rawRows.count) groups")
    ratio("aggregate", raw / quarry)
}
