import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) import QuarryBrowser

/// A write by another program is re-fetched twice: once when the watcher finds it, and once
/// more with the next change or when the watcher goes quiet (its transaction may be published
/// only then). The second is the same write: the status line says "external change" once, and
/// a message shown in between (a refused undo, a key's error) stays.
@MainActor
@Suite("Browser: the follow-up re-fetch of an outside write says nothing new",
       .serialized, .enabled(if: SQLiteShell.isInstalled, "needs the sqlite3 shell at /usr/bin/sqlite3"))
struct ExternalFollowUpMessageTests {
    @Test("a message shown after \"external change\" stays through the same write's follow-up re-fetch")
    func followUpKeepsTheLaterMessage() async throws {
        let f = try BrowserFixture()
        let url = f.directory.file("browse.sqlite")
        let (stream, continuation) = AsyncStream<RemoteChange>.makeStream()
        let token = f.stack.addRemoteChangeObserver { continuation.yield($0) }
        defer { token.cancel() }

        _ = try SQLiteShell.run(url, "UPDATE Ticker SET price = 77 WHERE Z_PK = 1")
        let first = try #require(try await nextElement(of: stream, awaiting: "sqlite3's write, re-fetched"))
        #expect(first.isExternal && !first.isFollowUp && first.error == nil, "\(first)")
        #expect(f.screen()[39].contains("external change"), "\(f.screen().suffix(2))")

        f.type("zq")  // not a z command: an error message of the browser's own
        #expect(f.screen()[39].contains("zq does nothing"))
        let second = try #require(try await nextElement(of: stream, awaiting: "the same write's follow-up re-fetch"))
        #expect(second.isExternal && second.isFollowUp && second.error == nil, "\(second)")
        #expect(f.screen()[39].contains("zq does nothing"), "\(f.screen().suffix(2))")
        #expect(f.screen().contains(text: "77.00"), "the rows were re-fetched")
    }
}
