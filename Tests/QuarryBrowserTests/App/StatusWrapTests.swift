import Foundation
import Quarry
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// An error on the status line or under a prompt is shown whole at any width, the column it
/// names included: it wraps onto rows taken from the table (issue 34, item 16).
@MainActor
@Suite("Browser: an error wider than the screen wraps, whole")
struct StatusWrapTests {
    static let error = "theme: /home/user/.config/quarry/themes/mine.toml:3: key 'cursor.fg': unknown colour 'blurple' (using the default theme)"

    @Test("a status-line error is whole at widths 40, 60 and 80, every row within the width", arguments: [40, 60, 80])
    func statusError(width: Int) throws {
        let f = try BrowserFixture()
        f.browser.message = (Self.error, true)
        let lines = f.screen(TerminalSize(width: width, height: 20))
        let wrapped = DisplayWidth.wrap(Self.error, toWidth: width - 1)
        let rows = wrapped.count
        #expect(rows > 1)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= width })
        // Every line of the message: the first ones on rows of their own, the last one on the
        // status line beside the (shortened) position.
        #expect(Array(lines.suffix(rows).dropLast()) == wrapped.dropLast().map { " " + $0 }, "\(lines.suffix(rows))")
        #expect(lines.last?.contains(wrapped.last!) == true, "\(lines.suffix(rows))")
        if width >= 60 {
            #expect(lines.suffix(rows).joined(separator: " ").contains("/home/user/.config/quarry/themes/mine.toml:3:"), "\(lines.suffix(rows))")
        }
        // The table gave up the rows: its header is still on row 1, its rows end above the message.
        #expect(lines[1].hasPrefix("symbol"))
        #expect(f.browser.table.pageHeight == 20 - 2 - rows)
        // The key that clears the message gives the rows back.
        f.type("j")
        let after = f.screen(TerminalSize(width: width, height: 20))
        #expect(after.last?.contains("row 2/30") == true)
        #expect(f.browser.table.pageHeight == 20 - 3)
    }

    @Test("a filter's error in the prompt at 60 columns is whole, with the column it names")
    func promptError() async throws {
        let f = try BrowserFixture(sectioned: false)
        f.type("f")
        f.type("price > 'abc'")
        f.press(.enter)
        let lines = f.screen(TerminalSize(width: 60, height: 20))
        #expect(lines.last == "filter: price > 'abc'")
        let error = lines.suffix(3).dropLast().joined(separator: " ")
        #expect(error.contains("cannot compare 'price' (Double) with the string 'abc' at column 9"), "\(lines.suffix(3))")
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 60 })
    }
}
