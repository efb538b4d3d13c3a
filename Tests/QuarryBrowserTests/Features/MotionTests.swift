import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// Count prefixes, half pages, first and last column, jumping to a column by name, follow mode
/// and the answer to an unknown key, on the in-memory screen.
@MainActor
@Suite("Browser: counts, half pages, 0 $ c t, and unknown keys")
struct MotionTests {
    /// The status line (the last of a 120×40 screen).
    func status(_ f: BrowserFixture) -> String { f.screen()[39] }

    @Test("10j moves ten rows, 5k five back, 25G to row 25, and Esc clears a count")
    func countPrefixes() throws {
        let f = try BrowserFixture(sectioned: false)
        f.type("10j")
        #expect(status(f).contains("row 11/30"), "\(status(f))")
        f.type("5k")
        #expect(status(f).contains("row 6/30"))
        f.type("25G")
        #expect(status(f).contains("row 25/30"))
        f.type("2g")
        #expect(status(f).contains("row 2/30"))
        f.type("3")
        #expect(status(f).contains("3 (a count"))
        f.press(.escape)
        f.type("j")
        #expect(status(f).contains("row 3/30"), "Esc dropped the count: j moved one row")
        f.type("999j")
        #expect(status(f).contains("row 30/30"), "a count past the end stops on the last row")
    }

    @Test("Ctrl-D and Ctrl-U move half a page; a count repeats them")
    func halfPages() throws {
        let f = try BrowserFixture(tickers: 200, sectioned: false)
        _ = f.screen()
        let half = max(1, f.browser.table.pageHeight / 2)
        f.press(.control("d"))
        #expect(status(f).contains("row \(1 + half)/200"), "\(status(f))")
        f.type("2")
        f.press(.control("d"))
        #expect(status(f).contains("row \(1 + 3 * half)/200"))
        f.press(.control("u"))
        #expect(status(f).contains("row \(1 + 2 * half)/200"))
    }

    @Test("$ goes to the last column, 0 to the first, 2l two columns on")
    func firstAndLastColumn() throws {
        let f = try BrowserFixture()
        f.type("$")
        #expect(status(f).contains("col 7/7"), "\(status(f))")
        f.type("0")
        #expect(status(f).contains("col 1/7"))
        f.type("2l")
        #expect(status(f).contains("col 3/7"))
    }

    @Test("c jumps to a column by name, Tab completing it; an unknown name is refused in the prompt")
    func columnJump() throws {
        let f = try BrowserFixture()
        f.type("c")
        #expect(f.screen()[39].hasPrefix(":col"))
        f.type("vol")
        f.press(.tab)
        #expect(f.screen()[39].contains(":col volume"))
        f.press(.enter)
        let columns = f.browser.shownColumns.map(\.title)
        let volume = try #require(columns.firstIndex(of: "volume"))
        #expect(status(f).contains("col \(volume + 1)/7"), "\(status(f))")
        f.type("c")
        f.type("nosuch")
        f.press(.enter)
        #expect(f.screen().contains { $0.contains("no column 'nosuch'") })
        f.press(.escape)
    }

    @Test("an unknown key says once to press ? for help, then only that it does nothing")
    func unknownKey() throws {
        let f = try BrowserFixture()
        f.type("Z")
        #expect(status(f).contains("Z does nothing here: press ? for help"), "\(status(f))")
        f.type("Z")
        #expect(status(f).contains("Z does nothing here"))
        #expect(!status(f).contains("press ? for help"))
    }

    @Test("t follows the first rows: a row arriving at the top is under the cursor; moving leaves")
    func followMode() async throws {
        let f = try BrowserFixture(sectioned: false)
        f.type("5j")
        f.type("t")
        #expect(status(f).contains("following (t)"), "\(status(f))")
        #expect(status(f).contains("row 1/30"))
        try await f.importerSave { context in
            let ticker = try context.insertObject(entityName: "Ticker")
            try ticker.setValues(["symbol": .string("A00"), "price": .double(1)])
        }
        let lines = f.screen()
        #expect(lines[2].hasPrefix("A00"), "the new first row is shown")
        #expect(lines[39].contains("row 1/31"), "\(lines[39])")
        f.type("j")
        #expect(status(f).contains("stopped following (you moved)"))
        #expect(!status(f).contains("following (t)"))
    }
}
