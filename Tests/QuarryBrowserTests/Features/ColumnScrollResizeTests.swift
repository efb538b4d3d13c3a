import Foundation
import Quarry
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// The column scroll is recomputed when the terminal widens (issue 34, item 17): the room
/// gained shows the columns before the column cursor, not blank space past the last column.
@MainActor
@Suite("Browser: a wider terminal scrolls the columns back")
struct ColumnScrollResizeTests {
    let narrow = TerminalSize(width: 40, height: 20)
    let wide = TerminalSize(width: 160, height: 40)

    /// A browser scrolled right to its last column at 40 columns.
    private func scrolledRight() throws -> BrowserFixture {
        let f = try BrowserFixture(sectioned: false)
        f.browser.handle(.resize(narrow))
        for _ in 0..<f.browser.shownColumns.count { f.press(.right) }
        let header = f.screen(narrow)[1]
        #expect(!header.hasPrefix("symbol"), "not scrolled: \(header)")
        return f
    }

    @Test("a resize to a wide terminal shows every column from the first, the cursor staying on the last")
    func resizeShowsTheFirstColumnsAgain() throws {
        let f = try scrolledRight()
        let last = f.browser.shownColumns.count - 1
        f.browser.handle(.resize(wide))
        let header = f.screen(wide)[1]
        #expect(header.hasPrefix("symbol"), "\(header)")
        #expect(f.browser.columnView.firstColumn == 0)
        #expect(f.browser.columnView.cursor == last)
        #expect(f.screen(wide).last?.contains("col \(last + 1)/\(last + 1)") == true)
    }

    @Test("a frame drawn at a wider size scrolls back too, as far as the cursor's column stays whole")
    func partialWidening() throws {
        let f = try scrolledRight()
        let medium = TerminalSize(width: 48, height: 20)
        _ = f.screen(medium)
        // The first column shown is the leftmost from which every column up to the last fits.
        let widths = f.browser.shownColumns.map { $0.width + 1 }
        let expected = widths.indices.first { widths[$0...].reduce(0, +) <= medium.width } ?? widths.count - 1
        #expect(f.browser.columnView.firstColumn == expected)
        let header = f.screen(medium)[1]
        #expect(header.hasPrefix(f.browser.shownColumns[expected].title), "\(header)")
    }

    @Test("moving the column cursor left within the columns shown does not scroll; narrowing keeps the cursor visible")
    func ordinaryScrollingIsUnchanged() throws {
        let f = try scrolledRight()
        let first = f.browser.columnView.firstColumn
        f.press(.left)
        _ = f.screen(narrow)
        #expect(f.browser.columnView.firstColumn == first)
        f.browser.handle(.resize(TerminalSize(width: 40, height: 12)))
        _ = f.screen(TerminalSize(width: 40, height: 12))
        #expect(f.browser.columnView.firstColumn == first)
    }
}
