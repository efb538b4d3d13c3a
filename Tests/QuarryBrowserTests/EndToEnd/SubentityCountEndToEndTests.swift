import Foundation
import QuarryTestSupport
import Testing

/// Issue 34, item 5, in a terminal: `quarry stats` and `quarry browse` on one Core Data store
/// give the same count for an entity with sub-entities, labelled in stats.
@Suite("End to end in tmux: counts with sub-entities", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct SubentityCountEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    @Test("stats labels Item's 0 own and 3 with sub-entities; browse --entity Item counts 3")
    func statsAndBrowseAgree() async throws {
        let url = directory.file("Library.sqlite")
        try CoreDataFixture.library.write(to: url)
        let tmux = try await e2e.shell()
        defer { tmux.shutDown() }
        try e2e.type(tmux, "\(try e2e.quarry()) stats \(url.path) | grep Item")
        let stats = try await e2e.waitFor(tmux, text: "with sub-entities")
        #expect(stats.contains { $0.contains("Item") && $0.contains("0 own, 3 with sub-entities") }, "\(stats)")
        try e2e.type(tmux, "clear; \(try e2e.quarry()) browse \(url.path) --entity Item; echo \"ex\"\"it=$?\"")
        let screen = try await e2e.waitFor(tmux, "the browser's count") { TerminalEndToEndTests.rowNumbers($0) != nil }
        #expect(TerminalEndToEndTests.rowNumbers(screen)?.total == 3, "\(screen)")
        try tmux.send("q")
        _ = try await e2e.waitFor(tmux, text: "exit=0")
    }
}
