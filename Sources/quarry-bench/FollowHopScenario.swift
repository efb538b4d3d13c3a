import Foundation
@_spi(Benchmarks) import Quarry
@_spi(Benchmarks) import QuarryBrowser
import QuarryDemo
import QuarryTUI

/// Scenario `follow-hop`: Enter on a quote's `ticker` cell in the browser (in memory, 120×40)
/// over a demo store of n tickers (default 1,000,000; a quote for every tenth): from the key to
/// the frame drawn on the Ticker table — n rows — with the cursor on that ticker; then
/// Backspace to the frame back on the Quote table with the cursor on the quote
/// (`follow-back`). Each round starts on another quote (`j`); the first hop opens the Ticker
/// table, later ones find it as it was left. Figures: the p50 of each over `rounds` (default
/// 10) and the first hop, seconds. Target (`follow-hop`): ≤ 0.05 s.
func runFollowHopScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let rounds = max(1, args.int("rounds", default: 10))
    let (dir, url, model, seeding) = try seededDemoStore(rows: n)
    print("follow-hop: Enter on a quote's ticker cell → the \(n)-row Ticker table with the cursor on it, and Backspace back (120x40, no terminal); seeded in \(String(format: "%.1f", seeding)) s")
    runRoundsOffTheMainQueue(scenario: "follow-hop", cleanUp: { try? FileManager.default.removeItem(at: dir) }) {
        let box = try DispatchQueue.main.sync {
            try MainActor.assumeIsolated { try benchBrowser(url: url, model: model, entityName: "Quote", sort: [SortKey("price")], column: "ticker") }
        }
        var hops: [Double] = [], backs: [Double] = []
        for round in 0..<rounds {
            let (quote, ticker) = try DispatchQueue.main.sync { () throws -> (ObjectID, ObjectID) in
                try MainActor.assumeIsolated {
                    _ = drawFrame(box.browser)
                    guard let quote = box.browser.cursorObjectID,
                          let ticker = try box.stack.mainContext.object(with: quote).objectID(forKey: "ticker") else {
                        throw BenchError.check("round \(round): no quote with a ticker under the cursor")
                    }
                    return (quote, ticker)
                }
            }
            hops.append(try timeUntil(box, press: .enter, "round \(round): the Ticker table on \(ticker)") { browser, screen in
                browser.entityName == "Ticker" && browser.cursorObjectID == ticker && screen.last?.contains("/\(n)") == true
            })
            backs.append(try timeUntil(box, press: .backspace, "round \(round): back on the quote \(quote)") { browser, _ in
                browser.entityName == "Quote" && browser.cursorObjectID == quote
            })
            DispatchQueue.main.sync { MainActor.assumeIsolated { box.browser.handle(.key(.character("j"))) } }
        }
        func p(_ xs: [Double]) -> String { String(format: "p50 %.4f s  max %.4f s", percentile(xs, 0.5), xs.max() ?? 0) }
        print("  Enter on the ticker cell → Ticker table on screen, cursor on it  n=\(n)  first \(String(format: "%.4f", hops[0])) s  \(p(hops))")
        print("  Backspace → Quote table on screen, cursor on the quote           n=\(n)  \(p(backs))")
        print("figure follow-hop \(String(format: "%.4f", percentile(hops, 0.5)))")
        print("figure follow-hop-first \(String(format: "%.4f", hops[0]))")
        print("figure follow-back \(String(format: "%.4f", percentile(backs, 0.5)))")
    }
}

/// Seconds from pressing `key` to the first frame for which `done` holds: the key handled and
/// a frame drawn on the main queue, then frames drawn every millisecond (a hop's fetch lands
/// off the main queue) until it holds; fails after 30 s.
private func timeUntil(_ box: BrowserBox, press key: Key, _ what: String,
                       _ done: @escaping @MainActor (Browser, [String]) -> Bool) throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    var finished = DispatchQueue.main.sync {
        MainActor.assumeIsolated { () -> Bool in
            box.browser.handle(.key(key))
            return done(box.browser, drawFrame(box.browser))
        }
    }
    while !finished {
        guard DispatchTime.now().uptimeNanoseconds - start < 30_000_000_000 else { throw BenchError.check("\(what): not within 30 s") }
        usleep(1_000)
        finished = DispatchQueue.main.sync { MainActor.assumeIsolated { done(box.browser, drawFrame(box.browser)) } }
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}
