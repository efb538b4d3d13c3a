import Foundation
import QuarryTestSupport
import Testing

/// `--sort` takes a descending first key (`-price,symbol`, the help's own example) on every
/// command that has the option, although the value starts with `-`.
@Suite("--sort takes a value starting with '-'")
struct SortOptionCommandTests {
    let directory = TemporaryDirectory()

    /// A demo store of `rows` tickers.
    private func demoStore(rows: Int = 20) throws -> String {
        let store = directory.file("sort.sqlite").path
        let seeded = try QuarryExecutable.run(["demo", "--seed-only", "--rows", "\(rows)", "--store", store])
        #expect(seeded.status == 0, "\(seeded.standardError)")
        return store
    }

    @Test("export --sort -price,symbol exports by price, highest first")
    func exportTakesADescendingFirstKey() throws {
        let store = try demoStore()
        let result = try QuarryExecutable.run(["export", store, "--entity", "Ticker", "--sort", "-price,symbol",
                                               "--columns", "price,symbol", "--format", "jsonl"])
        #expect(result.status == 0, "\(result.standardError)")
        let prices = result.standardOutput.split(separator: "\n").compactMap { line -> Double? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["price"] as? Double
        }
        #expect(prices.count == 20)
        #expect(prices == prices.sorted(by: >), "\(prices)")
    }

    @Test("export --sort=-price takes it too")
    func exportTakesTheJoinedSpelling() throws {
        let store = try demoStore(rows: 5)
        let result = try QuarryExecutable.run(["export", store, "--entity", "Ticker", "--sort=-price", "--columns", "symbol"])
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("browse --sort -price gets past parsing (to the terminal check)")
    func browseTakesADescendingFirstKey() throws {
        let store = try demoStore(rows: 5)
        let result = try QuarryExecutable.run(["browse", store, "--entity", "Ticker", "--sort", "-price,symbol"])
        #expect(!result.standardError.contains("Missing value"), "\(result.standardError)")
        #expect(result.standardError.contains("needs a terminal"), "\(result.standardError)")
    }
}
