/// What a key does on the table: ``KeyHelp/bindings`` maps keys to these, and the browser's
/// dispatcher performs them, so the help, docs/browser.md's key table and the keys that work are one list.
public enum TableAction: Sendable, Hashable {
    /// The next or previous row.
    case rowDown, rowUp
    /// A page down or up.
    case pageDown, pageUp
    /// Half a page down or up (`Ctrl-D`, `Ctrl-U`).
    case halfPageDown, halfPageUp
    /// The first or last visible column (`0`, `$`).
    case firstColumn, lastColumn
    /// `c`: jump to a column by name.
    case jumpToColumn
    /// `t`: follow the first rows as they change (leaving it when the cursor moves).
    case followTop
    /// `Backspace`, `Ctrl-O`: back to where the last hop (Enter on a to-one cell) started.
    case back
    /// `v`: select or unselect the cursor's row (and move down).
    case toggleSelection
    /// `V`: select the rows matching a predicate.
    case selectMatching
    /// `E`: set the column under the cursor of the selected rows (or the cursor's row).
    case setColumn
    /// The first or last row.
    case top, bottom
    /// The next or previous section.
    case nextSection, previousSection
    /// The next or previous column.
    case columnRight, columnLeft
    /// The `:` command line.
    case commandLine
    /// The first key of `za`, `zM`, `zR`.
    case sectionPrefix
    /// `/`: search the column under the cursor.
    case search
    /// `n` / `N`: the next or previous match.
    case nextMatch, previousMatch
    /// `f`: the filter prompt.
    case filter
    /// `Tab`: the entity picker.
    case pickEntity
    /// `Esc`: cancel the running query or export, else leave a relationship's table.
    case cancel
    /// Sort by the column under the cursor.
    case sortAscending, sortDescending
    /// Narrow or widen the column under the cursor.
    case narrow, widen
    /// Hide the column under the cursor; show every column.
    case hide, showAll
    /// Freeze the first column.
    case freeze
    /// `Enter`: the row's ``BrowserConfiguration/selectionAction`` (by default its detail page), or expand a collapsed section.
    case open
    /// Copy the cell or the row.
    case copyCell, copyRow
    /// The schema and history views.
    case schema, history
    /// Edit the row, add an object, delete the row, export the view.
    case edit, add, delete, export
    /// Undo / redo the browser's last edit, add or delete (also after it was saved).
    case undo, redo
    /// `F`: the frequency view of the column under the cursor.
    case frequency
    /// `%`: the summary line under the table and each section header.
    case summary
    /// Pause or resume the live merge.
    case pause
    /// Re-read the rows from the store (how others' changes show where the store is not live).
    case refresh
    /// Redraw the screen.
    case redraw
    /// The help overlay.
    case help
    /// Quit.
    case quit
}
