import Foundation
import Quarry
import QuarryTUI
import Synchronization
import Testing
@_spi(Testing) @testable import QuarryBrowser

@MainActor
@Suite("Browser: an error on the status line is always visible")
struct StatusPriorityTests {
    @Test("an error message is shown whole at widths 40, 60 and 120, the rest shortened", arguments: [40, 60, 120])
    func errorHasPriority(width: Int) throws {
        let f = try BrowserFixture(tickers: 3000)
        f.browser.liveStatus = { "import 400 rows/s · merged 12:00:00" }
        f.browser.message = ("import stopped: disk I/O error", true)
        let status = try #require(f.screen(TerminalSize(width: width, height: 20)).last)
        #expect(status.contains("import stopped: disk I/O error"))
        #expect(status.count <= width)
    }

    @Test("the importer's alert is shown whole at widths 40, 60 and 120 while no message is up", arguments: [40, 60, 120])
    func liveAlertHasPriority(width: Int) throws {
        let f = try BrowserFixture(tickers: 3000)
        f.browser.liveStatus = { "import 400 rows/s" }
        f.browser.liveAlert = { "import paused: store busy" }
        f.type("j")
        let status = try #require(f.screen(TerminalSize(width: width, height: 20)).last)
        #expect(status.contains("import paused: store busy"))
        if width >= 60 { #expect(status.contains("row 2/3000")) }
    }

    /// The CI failure of session 45: the demo's watcher had put "external change" on the
    /// status line, which stays until a key is pressed, and it hid the alert that must show
    /// without one.
    @Test("an informational message does not hide the importer's alert; it shows again once the alert is gone", arguments: [40, 60, 120])
    func liveAlertBeforeAMessage(width: Int) throws {
        let f = try BrowserFixture(tickers: 30)
        let alert = Mutex<String?>("import paused: store busy")
        f.browser.liveAlert = { alert.withLock { $0 } }
        f.browser.message = (Browser.externalChangeMessage, false)
        let status = try #require(f.screen(TerminalSize(width: width, height: 20)).last)
        #expect(status.contains("import paused: store busy"), "\(status)")
        #expect(f.browser.statusMessage?.style == f.browser.theme[.error])
        alert.withLock { $0 = nil }
        let after = try #require(f.screen(TerminalSize(width: width, height: 20)).last)
        #expect(after.contains(Browser.externalChangeMessage), "\(after)")
    }
}
