import Foundation
import Quarry
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// `render` draws the state and changes nothing (issue 36, item 8): the layout (page height,
/// column scroll, fitted widths, the visible rows) is done by the event handlers, so rendering
/// twice gives the same screen and leaves every state value as it was.
@MainActor
@Suite("Browser: rendering is pure")
struct PureRenderTests {
    let size = TerminalSize(width: 120, height: 40)
    let narrow = TerminalSize(width: 50, height: 14)

    /// Every value of the browser's and its table's state that an event or a layout changes.
    struct StateSnapshot: Equatable {
        var columnView: ColumnView
        var screenSize: TerminalSize
        var needsLayout: Bool
        var laidOut: String?
        var columns: [String]
        var cursor: Int
        var top: Int
        var pageHeight: Int
        var lineCount: Int
        var sectionStarts: [Int]
        var cursorID: ObjectID?
        var cursorSectionName: String?
        var collapsedSections: Set<String>
        var flashes: [ObjectID: Double]
        var frozenRow: ObjectID?
        var changeBatches: Int
        var heldObjects: [ObjectID]
        var message: String?
        var overlay: String
        var isFetching: Bool
        var isExporting: Bool
        var isPaused: Bool
        var wantsQuit: Bool

        @MainActor init(_ browser: Browser) {
            let table = browser.table
            columnView = browser.columnView
            screenSize = browser.screen.size
            needsLayout = browser.screen.needsLayout
            laidOut = browser.screen.layout.map {
                "\($0.size) \($0.bottomRows) \($0.columnView) \($0.window.lines) \($0.window.highlightEnds) \($0.tableColumns.map(\.width))"
            }
            columns = table.columns.map { "\($0.title) \($0.width) \($0.isHidden) \($0.isWidthFixed) \($0.isFitted)" }
            cursor = table.cursor
            top = table.top
            pageHeight = table.pageHeight
            lineCount = table.lineCount
            sectionStarts = table.sectionStarts
            cursorID = table.cursorID
            cursorSectionName = table.cursorSectionName
            collapsedSections = table.collapsedSections
            flashes = table.flashes
            frozenRow = table.frozenRow?.id
            changeBatches = table.changeBatches
            heldObjects = table.visibleObjects.map(\.objectID)
            message = browser.message.map { "\($0.text) \($0.isError)" }
            overlay = String(describing: browser.overlay)
            isFetching = browser.isFetching
            isExporting = browser.exports.pending != nil
            isPaused = browser.isPaused
            wantsQuit = browser.wantsQuit
        }
    }

    /// Renders twice at `size` as the state is, then again once laid out for `size` (as the app
    /// does before a frame): each time both screens are identical and no state value changed,
    /// and laying out does not change the screen.
    private func expectPureRender(_ f: BrowserFixture, size: TerminalSize, _ what: String) {
        let unlaid = expectRendersTwiceAlike(f, size: size, "\(what), not laid out")
        f.browser.prepareFrame(size: size)
        #expect(!f.browser.screen.needsLayout)
        let laidOut = expectRendersTwiceAlike(f, size: size, "\(what), laid out")
        #expect(laidOut == unlaid, "\(what): laying out changed the screen")
    }

    private func expectRendersTwiceAlike(_ f: BrowserFixture, size: TerminalSize, _ what: String) -> ScreenBuffer {
        let before = StateSnapshot(f.browser)
        let first = f.browser.render(size: size)
        let second = f.browser.render(size: size)
        #expect(first == second, "\(what): the second frame differs")
        #expect(StateSnapshot(f.browser) == before, "\(what): rendering changed the state")
        return first
    }

    @Test("the first screen")
    func firstScreen() throws {
        let f = try BrowserFixture()
        expectPureRender(f, size: size, "first screen")
        #expect(f.browser.render(size: size).lines[2] == "▸ Energy (10)")
    }

    @Test("after a resize, and at a size no resize announced")
    func afterResize() throws {
        let f = try BrowserFixture()
        f.browser.handle(.resize(narrow))
        expectPureRender(f, size: narrow, "after a resize")
        expectPureRender(f, size: size, "at a size not announced")
    }

    @Test("after scrolling the columns right at a narrow width")
    func afterColumnScroll() throws {
        let f = try BrowserFixture(sectioned: false)
        f.browser.handle(.resize(narrow))
        for _ in 0..<f.browser.shownColumns.count { f.press(.right) }
        #expect(f.browser.columnView.firstColumn > 0)
        expectPureRender(f, size: narrow, "after scrolling columns")
        f.press(.left)
        expectPureRender(f, size: narrow, "after moving the column cursor back")
    }

    @Test("with a section collapsed, and after paging")
    func sectionCollapsed() throws {
        let f = try BrowserFixture()
        f.type("za")
        expectPureRender(f, size: size, "section collapsed")
        #expect(f.browser.render(size: size).lines[2].hasPrefix("▸ Energy (10) · collapsed"))
        f.press(.pageDown)
        expectPureRender(f, size: size, "after paging")
    }

    @Test("after a live change highlighted rows, and with a message wrapping the status line")
    func afterLiveChangeAndMessage() async throws {
        let f = try BrowserFixture()
        try await f.importerSave { context in
            try BrowserFixture.ticker("T03", in: context).setValue(.double(1234), forKey: "price")
        }
        expectPureRender(f, size: size, "after a live change")
        f.browser.message = (String(repeating: "a long error ", count: 30), true)
        expectPureRender(f, size: size, "with a wrapped error")
    }
}
