import Foundation

/// Scenario `history-cost`: the same import (n objects of the six-attribute entity through an
/// importer context, saves every `chunk`) into a store that records persistent history and
/// into one that does not, rounds interleaved, best of each. `ratio history-cost` is the
/// throughput with history over the throughput without (target ≥ 0.85).
func runHistoryCostScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 100_000)
    let chunk = args.int("chunk", default: 5_000)
    let rounds = args.int("rounds", default: 5)
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let data = RowData(count: n)

    print("history-cost: \(n) objects of a 6-attribute entity, transactions of \(chunk), history on vs off")
    var on = Double.infinity, off = Double.infinity
    for r in 0..<rounds {
        // Alternate which side goes first, so neither always meets a warmer cache.
        let sides = r.isMultiple(of: 2) ? [true, false] : [false, true]
        for records in sides {
            let url = dir.appendingPathComponent("\(records ? "on" : "off")\(r).sqlite")
            let seconds = try quarryImport(n: n, chunk: chunk, data: data, url: url, recordsHistory: records)
            if records { on = min(on, seconds) } else { off = min(off, seconds) }
        }
    }
    print("  (best of \(rounds) rounds per side)")
    report("import, history on", n: n, seconds: on)
    report("import, history off", n: n, seconds: off)
    ratio("history-cost", off / on)
}
