import Foundation
import GRDBSQLite
@_spi(Benchmarks) import Quarry
import QuarryBrowser
import QuarryDemo
import QuarryTUI

/// The browser over n demo tickers (default 1,000,000) sorted by symbol, with the column
/// cursor on the `sector` column and a first frame drawn.
@MainActor
private func frequencyBrowser(url: URL, model: ManagedObjectModel) throws -> BrowserBox {
    try benchBrowser(url: url, model: model, entityName: "Ticker", sort: [SortKey("symbol")], column: "sector")
}

/// The frequency view's rows on `screen`: value and count.
private func frequencyRows(_ screen: [String]) -> [String: Int64] {
    var rows: [String: Int64] = [:]
    for line in screen.dropFirst(2).dropLast() {
        guard let range = line.range(of: #" +\d+ +\d+\.\d( |$)"#, options: .regularExpression), range.lowerBound > line.startIndex,
              let count = line[range].split(separator: " ").first.flatMap({ Int64($0) }) else { continue }
        rows[String(line[..<range.lowerBound])] = count
    }
    return rows
}

/// The raw `GROUP BY` of tickers per sector name through SQLite's C API, and its rows.
private func rawGroupBy(_ db: RawDatabase, _ select: OpaquePointer) -> [String: Int64] {
    var rows: [String: Int64] = [:]
    while sqlite3_step(select) == SQLITE_ROW {
        rows[sqlite3_column_text(select, 0).map { String(cString: $0) } ?? "(none)"] = sqlite3_column_int64(select, 1)
    }
    sqlite3_reset(select)
    return rows
}

private let groupBySQL = "SELECT s.name, count(*) FROM Ticker t LEFT JOIN Sector s ON s.Z_PK = t.sector GROUP BY s.name"

/// Scenario `freq-first-screen`: `F` on the `sector` column of n demo tickers (default
/// 1,000,000) in the browser: from the key press to the frequency view drawn (the key
/// handled, the frame laid out and rendered, its 11 rows on screen, their counts summing to
/// n), then how long until the view is live (its aggregate controller read the store off the
/// main queue). Best of `rounds` (default 3; Esc closes the view between, once it is live).
/// Figure: seconds. Target: ≤ 0.3 s.
func runFrequencyFirstScreenScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let rounds = max(1, args.int("rounds", default: 3))
    let (dir, url, model, seeding) = try seededDemoStore(rows: n)
    print("freq-first-screen: F on sector.name of \(n) demo tickers in the browser (120x40, no terminal); seeded in \(String(format: "%.1f", seeding)) s")
    runRoundsOffTheMainQueue(scenario: "freq-first-screen", cleanUp: { try? FileManager.default.removeItem(at: dir) }) {
        let browser = try DispatchQueue.main.sync { try MainActor.assumeIsolated { try frequencyBrowser(url: url, model: model) } }
        var times: [Double] = []
        for round in 0..<rounds {
            let (seconds, screen) = DispatchQueue.main.sync {
                MainActor.assumeIsolated { () -> (Double, [String]) in
                    var screen: [String] = []
                    let seconds = measure {
                        browser.browser.handle(.key(.character("F")))
                        screen = drawFrame(browser.browser)
                    }
                    return (seconds, screen)
                }
            }
            times.append(seconds)
            let rows = frequencyRows(screen)
            guard screen.last?.contains("sector.name: value 1/") == true, rows.values.reduce(0, +) == Int64(n) else {
                throw BenchError.check("round \(round): no frequency view summing to \(n) on screen:\n\(screen.joined(separator: "\n"))")
            }
            let live = measure { waitUntilLive(browser) }
            print("  round \(round + 1): \(String(format: "%.3f", seconds)) s  \(rows.count) values; live \(String(format: "%.3f", live)) s later")
            DispatchQueue.main.sync { MainActor.assumeIsolated { browser.browser.handle(.key(.escape)); _ = drawFrame(browser.browser) } }
        }
        print("  key press → frequency view on screen  n=\(n)  best \(String(format: "%.3f", times.min()!)) s")
        print("figure freq-first-screen \(String(format: "%.3f", times.min()!))")
    }
}

/// Polls the browser's frames (every 5 ms, on the main queue) until its frequency view says it
/// is live.
private func waitUntilLive(_ browser: BrowserBox) {
    while !DispatchQueue.main.sync(execute: { MainActor.assumeIsolated { drawFrame(browser.browser).last?.contains("live, ") == true } }) {
        usleep(5_000)
    }
}

/// Scenario `freq-live`: the browser's frequency view of `sector.name` open over n demo
/// tickers (default 1,000,000); each round an importer moves k random tickers (default 1,000)
/// to random sectors and saves, and the stack merges the save. Timed: from the save's commit
/// (the store's WAL hook) to the next frame drawn with the new counts (the merge, the table's
/// and the view's updates, layout and render), against re-running the raw `GROUP BY` through
/// SQLite's C API; p50 over `rounds` (default 10), every round's counts on screen checked
/// against the raw query's. Target: ≥ 50. Also printed: the view's own update as its status
/// line reports it (from the change event to the aggregate controller's last delegate call,
/// the merge and the table behind left out), and the raw `GROUP BY` against it
/// (`figure freq-live-view`).
func runFrequencyLiveScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let k = args.int("k", default: 1_000)
    let rounds = max(1, args.int("rounds", default: 10))
    let (dir, url, model, seeding) = try seededDemoStore(rows: n)
    print("freq-live: the frequency view of sector.name over \(n) demo tickers, live; each round an importer save moving \(k) tickers to other sectors; seeded in \(String(format: "%.1f", seeding)) s")
    runRoundsOffTheMainQueue(scenario: "freq-live", cleanUp: { try? FileManager.default.removeItem(at: dir) }) {
        let browser = try DispatchQueue.main.sync { () throws -> BrowserBox in
            try MainActor.assumeIsolated {
                let box = try frequencyBrowser(url: url, model: model)
                box.browser.handle(.key(.character("F")))
                _ = drawFrame(box.browser)
                return box
            }
        }
        let stack = browser.stack
        waitUntilLive(browser)
        guard let store = stack.writerCoordinator.store as? SQLiteStore else { throw BenchError.check("not an SQLite store") }
        let importer = stack.importerContext()
        let (ids, sectors) = try importer.performAndWait {
            (try importer.fetchObjectIDs(FetchRequest(entityName: "Ticker")), try importer.fetchObjectIDs(FetchRequest(entityName: "Sector")))
        }
        let db = try RawDatabase(url: url)
        let select = try db.prepare(groupBySQL)
        defer { sqlite3_finalize(select) }
        let merged = DispatchSemaphore(value: 0)
        let token = stack.addMergeObserver { _ in merged.signal() }
        defer { token.cancel() }
        var rng = SplitMix64(seed: 41)
        var updates: [Double] = [], raws: [Double] = [], views: [Double] = []
        for round in 0..<rounds {
            try importer.performAndWait {
                for _ in 0..<k {
                    let ticker = importer.object(with: ids[rng.below(ids.count)])
                    try ticker.setObject(importer.object(with: sectors[rng.below(sectors.count)]), forKey: "sector")
                }
                try importer.save()
                importer.reset()
            }
            merged.wait()
            let committed = store.lastCommitUptime
            let (drawn, screen) = DispatchQueue.main.sync {
                MainActor.assumeIsolated { () -> (UInt64, [String]) in
                    let screen = drawFrame(browser.browser)
                    return (DispatchTime.now().uptimeNanoseconds, screen)
                }
            }
            guard drawn > committed else { throw BenchError.check("drawn before the save committed") }
            updates.append(Double(drawn - committed) / 1e9)
            var raw: [String: Int64] = [:]
            raws.append(measure { raw = rawGroupBy(db, select) })
            if let view = screen.last.flatMap(viewUpdateSeconds) { views.append(view) }
            let live = frequencyRows(screen)
            guard live == raw else {
                throw BenchError.check("round \(round): the view's counts \(live.sorted { $0.key < $1.key }) differ from GROUP BY's \(raw.sorted { $0.key < $1.key })")
            }
        }
        let status = DispatchQueue.main.sync { MainActor.assumeIsolated { drawFrame(browser.browser).last ?? "" } }
        func p(_ xs: [Double]) -> String { String(format: "p50 %.4f s  max %.4f s", percentile(xs, 0.5), xs.max() ?? 0) }
        print("  save's commit → frame with the new counts  k=\(k) n=\(n)  \(p(updates))")
        print("  raw GROUP BY                              n=\(n)  \(p(raws))")
        print("  status line: \(status.trimmingCharacters(in: .whitespaces))")
        if !views.isEmpty {
            print("  the view's own update (status line)      k=\(k) n=\(n)  \(p(views))")
            print("figure freq-live-view \(String(format: "%.3f", percentile(raws, 0.5) / percentile(views, 0.5)))")
        }
        ratio("freq-live", percentile(raws, 0.5) / percentile(updates, 0.5))
    }
}

/// The seconds of `live, last update 3.69 ms: …` on a frequency view's status line.
private func viewUpdateSeconds(_ status: String) -> Double? {
    guard let range = status.range(of: #"last update [0-9.]+ (ms|s)"#, options: .regularExpression) else { return nil }
    let words = status[range].split(separator: " ")
    guard words.count == 4, let value = Double(words[2]) else { return nil }
    return words[3] == "ms" ? value / 1000 : value
}
