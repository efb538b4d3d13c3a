import QuarryTUI

/// Where everything goes on a screen of one size, for the state as it is: the rows the status
/// line (or prompt) takes, the table's area and page height, the column scroll, the columns'
/// fitted widths, and the table's visible lines.
///
/// Computed by ``Browser/makeLayout(size:bottomRows:)`` from the state, without changing it;
/// the browser keeps it before a frame (``Browser/prepareFrame(size:)``) and
/// ``Browser/render(size:)`` only draws it.
@MainActor
struct BrowserLayout {
    /// The terminal's size laid out for.
    var size: TerminalSize
    /// The rows at the bottom taken by the status line or the prompt (an error wraps).
    var bottomRows: Int
    /// The column scroll, the cursor clamped to the shown columns and kept on screen.
    var columnView: ColumnView
    /// Every column of the table (hidden ones included), shown ones fitted to the visible rows.
    var columns: [ColumnSpec]
    /// The shown columns as the table view draws them (titles, fitted widths, sort arrows).
    var tableColumns: [TableColumn]
    /// The visible lines and the objects they show.
    var window: TableWindow
    /// The rows under the table's lines taken by the summary line (`%`): 0 or 1.
    var summaryRows = 0

    /// The table's area: below the title bar, above the status line.
    var tableRect: Rect { Rect(x: 0, y: 1, width: size.width, height: size.height - 1 - bottomRows) }

    /// How many lines the table shows below its header.
    var pageHeight: Int { Self.pageHeight(size: size, bottomRows: bottomRows, summaryRows: summaryRows) }

    /// How many lines the table shows below its header on a screen of `size` whose bottom
    /// `bottomRows` rows are taken, and `summaryRows` under the lines by the summary.
    static func pageHeight(size: TerminalSize, bottomRows: Int, summaryRows: Int = 0) -> Int {
        max(1, size.height - 1 - bottomRows - 1 - summaryRows)
    }
}

/// The screen the browser lays out for, and its layout as last computed.
@MainActor
struct ScreenState {
    /// The terminal's size, from the last resize.
    var size = TerminalSize(width: 80, height: 24)
    /// The layout kept last, if any.
    var layout: BrowserLayout?
    /// Set by every event and every change made outside one (a live merge, a query landing, an
    /// export's progress): the next frame lays out again first.
    var needsLayout = true
}
