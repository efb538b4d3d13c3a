import Foundation
import QuarryTestSupport
import Testing

/// The frequency view in a real terminal: `F` on the sector column of a demo store, its counts
/// equal to `sqlite3`'s `GROUP BY`, kept live while another process deletes tickers, Enter
/// showing one sector's tickers and Esc coming back.
@Suite("End to end in tmux: the frequency view", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct FrequencyEndToEndTests {
    let directory = TemporaryDirectory()

    /// The shared end-to-end helpers: the built `quarry`, waiting for a screen.
    let e2e = TerminalEndToEndTests()

    /// The frequency view's rows on `screen`, in order: value (it may hold spaces), count.
    static func frequencies(_ screen: [String]) -> [(value: String, count: Int)] {
        screen.dropFirst(2).compactMap { line in
            guard let range = line.range(of: #" +\d+ +\d+\.\d( |$)"#, options: .regularExpression), range.lowerBound > line.startIndex,
                  let count = line[range].split(separator: " ").first.flatMap({ Int($0) }) else { return nil }
            return (String(line[..<range.lowerBound]), count)
        }
    }

    /// `sqlite3`'s count of tickers per sector name, or nil without `sqlite3`.
    static func groupBy(_ store: String) throws -> [String: Int]? {
        guard (try? TmuxHarness.run(["sqlite3", "-version"]).status) == 0 else { return nil }
        let result = try TmuxHarness.run(["sqlite3", store,
            "SELECT coalesce(s.name, '(none)') || '|' || count(*) FROM Ticker t LEFT JOIN Sector s ON s.Z_PK = t.sector GROUP BY s.name"])
        var counts: [String: Int] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: "|")
            if parts.count == 2, let n = Int(parts[1]) { counts[String(parts[0])] = n }
        }
        return counts
    }

    @Test("F on the sector column: 11 rows summing to the total, equal to GROUP BY, live; Enter shows Energy's tickers, Esc returns")
    func frequencyViewLiveAndFiltering() async throws {
        let store = directory.file("freq.sqlite").path
        try e2e.seed(store, rows: 2000)
        let browser = TmuxHarness(width: 140, height: 40)
        defer { browser.shutDown() }
        try browser.start("\(try e2e.quarry()) browse \(store) --entity Ticker --sort symbol", statusLine: false)
        _ = try await e2e.waitFor(browser, "the first screen") { $0.contains { $0.contains("row 1/2000") } }
        try browser.tmux("send-keys", "-t", browser.session, "-l", ":col sector")
        try browser.send("Enter")
        try browser.send("F")
        var screen = try await e2e.waitFor(browser, "the frequency view, live") { $0.contains { $0.contains("sector.name: value 1/11") && $0.contains("live, ") } }
        var rows = Self.frequencies(screen)
        #expect(rows.count == 11, "\(rows)")
        #expect(rows.map(\.count).reduce(0, +) == 2000)
        #expect(rows.map(\.count) == rows.map(\.count).sorted(by: >), "sorted by count")
        if let counts = try Self.groupBy(store) {
            #expect(Dictionary(uniqueKeysWithValues: rows.map { ($0.value, $0.count) }) == counts)
        }

        // Another process deletes some Energy tickers: the count changes in place, live.
        let energyBefore = try #require(rows.first { $0.value == "Energy" }).count
        let delete = try TmuxHarness.run([try e2e.quarry(), "delete", store, "--entity", "Ticker",
                                          "--where", "sector.name == 'Energy' AND price < 100", "--yes"])
        #expect(delete.status == 0, "\(delete.output)")
        screen = try await e2e.waitFor(browser, "the merged delete") { s in
            Self.frequencies(s).first { $0.value == "Energy" }.map { $0.count < energyBefore } ?? false
                && s.contains { $0.contains("live, last update") }
        }
        rows = Self.frequencies(screen)
        if let counts = try Self.groupBy(store) {
            #expect(Dictionary(uniqueKeysWithValues: rows.map { ($0.value, $0.count) }) == counts, "equal to GROUP BY after the change")
        }
        let energy = try #require(rows.firstIndex { $0.value == "Energy" })
        for _ in 0..<energy { try browser.send("j") }
        _ = try await e2e.waitFor(browser, "the cursor on Energy") { $0.contains { $0.contains("sector.name: value \(energy + 1)/11") } }
        try browser.send("Enter")
        screen = try await e2e.waitFor(browser, "Energy's tickers") { $0.contains { $0.contains("row 1/\(rows[energy].count)") } }
        #expect(screen[0].contains("filter sector.name == 'Energy'"), "\(screen[0])")
        let shown = screen.dropFirst(2).dropLast().filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(!shown.isEmpty && shown.allSatisfy { $0.contains("Energy") }, "\(shown)")
        try browser.send("Escape")
        _ = try await e2e.waitFor(browser, "back to the frequencies") { $0.contains { $0.contains("sector.name: value \(energy + 1)/11") } }
        try browser.send("Escape")
        _ = try await e2e.waitFor(browser, "the table") { $0.contains { $0.contains("row 1/") } }
        try browser.send("q")
        #expect(try await browser.waitForSessionEnd(timeout: .seconds(60)))
    }
}
