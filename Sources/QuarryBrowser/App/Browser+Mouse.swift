import Quarry
import QuarryTUI

extension Browser {
    /// How many lines one notch of the wheel scrolls.
    static let wheelLines = 3

    /// A click or a turn of the wheel: on a row it moves the cursor (and the column cursor to
    /// the column clicked), on a header it sorts by that column (again: the other way), on a
    /// section header it collapses or expands the section; the wheel moves three rows. Over an
    /// overlay the wheel scrolls its list and clicks are ignored.
    func handleMouse(_ event: MouseEvent) {
        switch overlay {
        case nil: break
        case .help, .picker, .detail, .text:
            if event.action == .wheelUp || event.action == .wheelDown { handle(.key(event.action == .wheelUp ? .up : .down)) }
            return
        default: return  // a prompt, a form or a question: keys only
        }
        message = nil
        switch event.action {
        case .wheelUp: table.moveCursor(by: -Self.wheelLines)
        case .wheelDown: table.moveCursor(by: Self.wheelLines)
        case .press: click(x: event.x, y: event.y)
        case .release, .otherPress: break
        }
    }

    private func click(x: Int, y: Int) {
        // Rows: the title bar (0), the table's header (1), the table's lines, the status line.
        let firstLine = 2
        if y == 1 {
            guard let shown = columnIndex(atX: x) else { return }
            columnView.cursor = shown
            let ascending = table.query.userSort.first.map { $0.keyPath != shownColumns[shown].sortKeyPath || !$0.ascending } ?? true
            sortByColumnUnderCursor(ascending: ascending)
            return
        }
        let offset = y - firstLine
        guard offset >= 0, offset < table.pageHeight else { return }
        let index = table.top + offset
        guard index < table.lineCount else { return }
        switch table.line(at: index) {
        case .section(let section):
            toggleSection(section)
        case .summary:
            break
        case .row:
            table.moveCursor(to: index)
            if let shown = columnIndex(atX: x) {
                columnView.cursor = shown
                keepColumnCursorVisible()
            }
        }
    }

    /// The index among ``shownColumns`` of the column drawn at `x`.
    private func columnIndex(atX x: Int) -> Int? {
        guard x >= gutterWidth else { return nil }  // a click on the selection's gutter
        return columnView.column(atX: x - gutterWidth, columns: shownColumns, width: columnsWidth(screen.size.width))
    }
}
