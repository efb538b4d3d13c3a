import Foundation
import QuarryTestSupport
import Testing

/// `quarry browse` in one tmux session while `quarry update` and `quarry delete` change its store
/// from another process: merged from history, never re-fetched.
@Suite("End to end in tmux: batch changes from another process", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct BatchChangeEndToEndTests {
    let directory = TemporaryDirectory()

    func quarry() throws -> String {
        try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first (swift build --build-tests)").path
    }

    func waitFor(_ tmux: TmuxHarness, _ what: String, _ predicate: @escaping ([String]) -> Bool) async throws -> [String] {
        if let screen = try await tmux.waitForScreen(timeout: .seconds(60), predicate) { return screen }
        Issue.record("timed out waiting for \(what); the screen was:\n\(try tmux.screen().joined(separator: "\n"))")
        throw CancellationError()
    }

    /// The table's rows of sector Energy on `screen` (the sector is the last column).
    static func energyRows(_ screen: [String]) -> [String] {
        screen.dropFirst(2).filter { $0.trimmingCharacters(in: .whitespaces).hasSuffix(" Energy") }
    }

    @Test("quarry update shows in the open browser as merged values, and quarry delete removes the rows its cascade deleted")
    func updateAndDeleteShowLive() async throws {
        let store = directory.file("batch.sqlite").path
        let seeded = try TmuxHarness.run([try quarry(), "demo", "--seed-only", "--no-import", "--rows", "2000", "--store", store])
        #expect(seeded.status == 0)
        let browser = TmuxHarness(width: 160, height: 40)
        defer { browser.shutDown() }
        try browser.start("\(try quarry()) browse \(store) --entity Ticker --sort symbol", statusLine: false)
        var screen = try await waitFor(browser, "the first screen") { RemoteChangeEndToEndTests.rowNumbers($0)?.total == 2000 }
        try #require(!Self.energyRows(screen).isEmpty, "no Energy row on the first screen:\n\(screen.joined(separator: "\n"))")
        #expect(!Self.energyRows(screen).allSatisfy { $0.contains(" 1.00 ") })

        let update = try TmuxHarness.run([try quarry(), "update", store, "--entity", "Ticker", "--where", "sector.name == 'Energy'",
                                          "--set", "price = 1", "--yes"])
        #expect(update.status == 0, "\(update.output)")
        screen = try await waitFor(browser, "the merged update") { s in
            let energy = Self.energyRows(s)
            return !energy.isEmpty && energy.allSatisfy { $0.contains(" 1.00 ") } && s.last { $0.contains("row ") }?.contains("merged") == true
        }
        #expect(!screen.contains { $0.contains("external change") }, "merged from history, not re-fetched")

        let delete = try TmuxHarness.run([try quarry(), "delete", store, "--entity", "Sector", "--where", "name == 'Energy'", "--yes"])
        #expect(delete.status == 0, "\(delete.output)")
        screen = try await waitFor(browser, "the merged delete") { s in
            Self.energyRows(s).isEmpty && (RemoteChangeEndToEndTests.rowNumbers(s)?.total ?? 2000) < 2000
        }
        #expect(!screen.contains { $0.contains("external change") })
        try browser.send("q")
        #expect(try await browser.waitForSessionEnd(timeout: .seconds(60)))
    }
}
