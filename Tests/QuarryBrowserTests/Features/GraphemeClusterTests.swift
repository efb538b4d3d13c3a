import Foundation
import Quarry
import QuarryTUI
import Testing
@_spi(Testing) import QuarryBrowser

/// A ZWJ emoji sequence is one cell group of two cells (issue 34, item 23).
@MainActor
@Suite("Browser: an extended grapheme cluster is one cell group")
struct GraphemeClusterTests {
    static let family = "👨‍👩‍👧‍👦"

    @Test("a family emoji in a name is one two-cell group; the columns after it and the status line stay in place")
    func familyEmoji() throws {
        let f = try BrowserFixture(sectioned: false, names: { $0 == 0 ? "\(Self.family) family" : "Company \($0)" })
        let size = TerminalSize(width: 120, height: 20)
        let screen = f.browser.render(size: size)
        let nameX = try #require(screen.line(1).range(of: "name")).lowerBound.utf16Offset(in: screen.line(1))
        // The whole cluster in the name column's first cell, its second cell a continuation.
        #expect(screen[nameX, 2].text == Self.family)
        #expect(screen[nameX + 1, 2].isContinuation)
        #expect(screen[nameX + 2, 2].text == " ")
        #expect(screen[nameX + 3, 2].text == "f")
        #expect(screen.line(2).contains("\(Self.family) family"))
        #expect(screen.lines.last?.hasPrefix(" row 1/30 · col 1/") == true)
        #expect(!screen.lines.last!.unicodeScalars.contains("\u{200D}"))
    }
}
