import Foundation
import Quarry
import QuarryDemo
import QuarryTUI

/// Scenario `filter-scale`: pathological filters on a demo store of n = 100,000 tickers, each
/// timed as the browser runs a filter: parse (with the type check and compile inside the
/// fetch) and a fetched-results controller's cancellable `performFetch` sorted by symbol in
/// batches of 50; and a 1 MB paste absorbed by the prompt (insert and one frame drawn).
/// Families have `--terms` terms (5,000; 1,000 for the quantified ones). Prints one line per
/// family, `figure filter-<family>-seconds`, `figure filter-paste-seconds` and
/// `figure filter-worst-seconds`.
func runFilterScaleScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 100_000)
    let terms = args.int("terms", default: 5_000)
    let quantified = args.int("quantified", default: 1_000)
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("demo.sqlite")
    let model = try DemoModel.make()
    try DemoSeeder(coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: model))).seed(rows: n)
    let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: model)), name: "browser")
    print("filter-scale: filters of \(terms) terms (\(quantified) quantified) on \(n) demo tickers; parse + fetch as the browser runs them")

    var worst = 0.0
    for (family, text) in filterFamilies(terms: terms, quantified: quantified) {
        var outcome = ""
        let seconds = measure {
            do { outcome = "\(try filteredCount(text, context: context)) rows" } catch { outcome = "refused: \(String(describing: error).prefix(60))" }
        }
        worst = max(worst, seconds)
        print("  \(family.padding(toLength: 14, withPad: " ", startingAt: 0)) \(String(format: "%8.3f", seconds)) s  \(text.utf8.count) bytes  \(outcome)")
        print("figure filter-\(family)-seconds \(String(format: "%.3f", seconds))")
    }
    let paste = measurePaste(bytes: 1 << 20)
    worst = max(worst, paste)
    print("  paste 1 MB     \(String(format: "%8.3f", paste)) s  prompt insert and one frame")
    print("figure filter-paste-seconds \(String(format: "%.3f", paste))")
    print("figure filter-worst-seconds \(String(format: "%.3f", worst))")
}

/// The families, in order: name and filter text.
private func filterFamilies(terms: Int, quantified: Int) -> [(String, String)] {
    func chain(_ count: Int, _ glue: String, _ term: (Int) -> String) -> String {
        (0..<count).map(term).joined(separator: glue)
    }
    return [
        ("and-bounds", chain(terms, " AND ") { "price > \($0 % 50)" }),
        ("or-equal", chain(terms, " OR ") { "symbol == \"\(DemoModel.symbol($0 * 7))\"" }),
        ("or-keys", chain(terms, " OR ") { $0 % 2 == 0 ? "symbol == \"S\($0)\"" : "volume == \($0)" }),
        ("in-list", "symbol IN {" + chain(terms, ", ") { "\"\(DemoModel.symbol($0 * 3))\"" } + "}"),
        ("to-one-and", chain(terms, " AND ") { "sector.name != \"X\($0)\"" }),
        ("and-of-or", chain(terms, " AND ") { "(price > \($0) OR name BEGINSWITH \"A\($0)\")" }),
        ("between-or", chain(terms, " OR ") { "price BETWEEN {\($0), \($0 + 1)}" }),
        ("any-or", chain(quantified, " OR ") { "ANY quotes.price > \($0)" }),
        ("none-and", chain(quantified, " AND ") { "NONE quotes.price == \($0)" }),
        ("like", "name LIKE \"" + String(repeating: "*a", count: terms) + "\""),
        ("matches", "name MATCHES \"" + String(repeating: "(a|b)", count: terms) + "\""),
        ("literal", "name CONTAINS \"" + String(repeating: "a", count: 1 << 20) + "\""),
        ("nesting", String(repeating: "(", count: terms) + "price > 1" + String(repeating: ")", count: terms)),
        ("not-chain", String(repeating: "NOT ", count: terms) + "price > 1"),
    ]
}

/// How many tickers `text` selects, fetched as the browser's table fetches a filter.
private func filteredCount(_ text: String, context: ObjectContext) throws -> Int {
    var request = FetchRequest(entityName: "Ticker", predicate: try ObjectPredicate(format: text), sortDescriptors: [SortKey("symbol")])
    request.fetchBatchSize = 50
    let controller = try context.performAndWait { try FetchedResultsController(fetchRequest: request, context: context) }
    let done = DispatchSemaphore(value: 0)
    let failure = LockedBox<Error?>(nil)
    context.perform {
        controller.performFetch(cancellation: QueryCancellation()) { error in
            failure.value = error
            done.signal()
        }
    }
    guard done.wait(timeout: .now() + 600) == .success else { throw BenchError.check("the fetch took over 600 s") }
    if let error = failure.value { throw error }
    return context.performAndWait { controller.count }
}

/// Seconds for the filter prompt to take a `bytes`-long paste and draw one frame.
private func measurePaste(bytes: Int) -> Double {
    let pasted = String(repeating: "price > 1 AND ", count: bytes / 14)
    var buffer = ScreenBuffer(size: TerminalSize(width: 120, height: 40))
    return measure {
        var line = PromptLine(prompt: "filter: ", text: EditableText())
        line.text.insert(pasted)
        line.render(into: &buffer, rect: Rect(x: 0, y: 0, width: 120, height: 40), theme: .builtInDefault)
    }
}

/// A value handed from the context's queue to the waiting thread (the semaphore orders them).
private final class LockedBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
