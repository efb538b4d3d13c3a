import Foundation
import QuarryTestSupport
import Testing

/// `quarry browse` keeps the table's sorted index in `$XDG_CACHE_HOME/quarry/frc` so that the
/// next browse of an unchanged store reads it back; `--no-cache` neither reads nor writes it
/// (issue 35, item 8; the reading itself is proven by `IndexCacheUseTests`).
@Suite("End to end in tmux: the index cache and --no-cache", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct IndexCacheEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    /// The cache files under `cacheHome`.
    func cacheFiles(_ cacheHome: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: cacheHome.appendingPathComponent("quarry/frc").path)) ?? []
    }

    /// Browses `store` with `XDG_CACHE_HOME=cacheHome` until its rows show, then quits.
    func browse(_ store: String, cacheHome: URL, _ flags: String) async throws {
        let tmux = TmuxHarness(width: 100, height: 20)
        defer { tmux.shutDown() }
        try tmux.start("env XDG_CACHE_HOME=\(cacheHome.path) \(try e2e.quarry()) browse \(store) --entity Ticker\(flags)", statusLine: false)
        _ = try await e2e.waitFor(tmux, text: "row 1/30")
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
    }

    @Test("a browse writes the cache (a second one keeps the same file); --no-cache writes none")
    func cacheAndNoCache() async throws {
        let store = directory.file("tickers.sqlite").path
        try e2e.seed(store, rows: 30)

        let without = directory.file("cache-off")
        try await browse(store, cacheHome: without, " --no-cache")
        #expect(cacheFiles(without).isEmpty, "--no-cache wrote \(cacheFiles(without))")

        let with = directory.file("cache-on")
        try await browse(store, cacheHome: with, "")
        let written = cacheFiles(with)
        #expect(written.count == 1, "the browse wrote \(written)")
        let file = with.appendingPathComponent("quarry/frc").appendingPathComponent(written.first ?? "-")
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        try await browse(store, cacheHome: with, "")
        #expect(cacheFiles(with) == written)
        // Read back, not rewritten: the store did not change.
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == modified)
    }
}
