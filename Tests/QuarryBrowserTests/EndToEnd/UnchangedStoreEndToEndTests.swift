import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// A browse that writes nothing changes nothing (issue 34, item 0d): before, GRDB's writable
/// pool committed a dummy transaction at open (`CREATE TABLE grdb_issue_102 …; DROP TABLE …`),
/// and the checkpoint at `q` put it in the file: schema version +2 and one more page.
@Suite("End to end in tmux: a browse that writes nothing leaves the store's bytes", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct UnchangedStoreEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    /// sha256 of every file in `folder`.
    func fingerprint(_ folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = SHA256.hex(Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
        return result
    }

    @Test("quarry browse STORE, then q: every byte and every neighbour file as they were", arguments: [false, true])
    func plainBrowseThenQuit(readOnly: Bool) async throws {
        let folder = directory.file("store")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("tickers.sqlite").path
        try e2e.seed(store, rows: 30)
        let before = try fingerprint(folder)
        #expect(before.count == 1, "the seed left \(before.keys.sorted())")
        let tmux = TmuxHarness(width: 100, height: 20)
        defer { tmux.shutDown() }
        try tmux.start("\(try e2e.quarry()) browse \(store) --entity Ticker\(readOnly ? " --read-only" : "")", statusLine: false)
        _ = try await e2e.waitFor(tmux, text: "row 1/30")
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
        #expect(try fingerprint(folder) == before)
    }
}
