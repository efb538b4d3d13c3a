import Quarry
import QuarryTUI

/// Count prefixes (`10j`, `5k`, `100G`, `3n`), half pages, first and last column, jumping to a
/// column by name, follow mode and the answer to an unknown key.
extension Browser {
    /// Takes `key` as a digit of a count prefix; returns whether it was one.
    func takeCountDigit(_ key: Key) -> Bool {
        guard case .character(let c) = key, motions.take(digit: c) else { return false }
        message = ("\(motions.count ?? 0) (a count: then j k G n … ; Esc clears)", false)
        return true
    }

    /// An unbound key: said once with the way to the help, then briefly.
    func noteUnknownKey(_ key: Key) {
        let name = KeyHelp.name(of: key)
        if motions.hintedHelp {
            message = ("\(name) does nothing here", true)
        } else {
            motions.hintedHelp = true
            message = ("\(name) does nothing here: press ? for help", true)
        }
    }

    /// Half a page down (`delta` 1) or up (-1), `count` times.
    func moveHalfPage(by delta: Int, count: Int) {
        table.moveCursor(by: delta * max(1, table.pageHeight / 2) * count)
    }

    /// The column cursor to the first (`0`) or last (`$`) visible column.
    func moveColumnCursor(toLast: Bool) {
        let count = shownColumns.count
        guard count > 0 else { return }
        columnView.cursor = toLast ? count - 1 : 0
        keepColumnCursorVisible()
    }

    /// `c`: the command line, ready for a column name (Tab completes).
    func openColumnJump() {
        overlay = .prompt(PromptState(kind: .command, text: "col "))
    }

    /// `:col NAME`: the column cursor to the visible column titled `NAME` (any case; a unique
    /// prefix will do); returns why not.
    func jumpToColumn(named name: String) -> String? {
        let columns = shownColumns
        let wanted = name.lowercased()
        let index = columns.firstIndex { $0.title.lowercased() == wanted || $0.key.lowercased() == wanted }
            ?? {
                let prefixed = columns.indices.filter { columns[$0].title.lowercased().hasPrefix(wanted) }
                return prefixed.count == 1 ? prefixed[0] : nil
            }()
        guard let index else {
            return "no column '\(name)' (Tab completes: \(columns.prefix(6).map(\.title).joined(separator: ", ")))"
        }
        columnView.cursor = index
        keepColumnCursorVisible()
        return nil
    }

    /// `t` or `:follow`: keeps the view on the first rows so rows arriving at the top are seen
    /// as they come (as `tail -f` does at the end); moving the cursor leaves it.
    func toggleFollowMode() {
        table.followsTop.toggle()
        if table.followsTop {
            table.moveToTop()
            message = ("following the first rows as they change (moving leaves)", false)
        } else {
            message = ("stopped following", false)
        }
    }

    /// Leaves follow mode when the user moves, saying so.
    func leaveFollowModeIfMoving(_ action: TableAction) {
        guard table.followsTop, action.movesCursor else { return }
        table.followsTop = false
        message = ("stopped following (you moved)", false)
    }
}

extension TableAction {
    /// Whether the action moves the cursor (which leaves follow mode).
    var movesCursor: Bool {
        switch self {
        case .rowDown, .rowUp, .pageDown, .pageUp, .halfPageDown, .halfPageUp, .top, .bottom, .nextSection, .previousSection,
             .nextMatch, .previousMatch, .search, .back:
            return true
        default:
            return false
        }
    }
}
