import Quarry
import QuarryTUI

extension Browser {
    /// `y`: copies the cell under the cursor to the system clipboard (OSC 52).
    func copyCell() {
        let columns = shownColumns
        guard let id = table.cursorID, columns.indices.contains(columnView.cursor) else {
            message = ("nothing to copy: no row under the cursor", true)
            return
        }
        let object = stack.mainContext.object(with: id)
        let text = Self.clipboardText(columns[columnView.cursor].text(for: object))
        copy(text, what: "\(columns[columnView.cursor].title) (\(text.count) characters)")
    }

    /// `Y`: copies the row under the cursor, its shown columns tab-separated, to the clipboard.
    func copyRow() {
        guard let id = table.cursorID else {
            message = ("nothing to copy: no row under the cursor", true)
            return
        }
        let object = stack.mainContext.object(with: id)
        let text = shownColumns.map { Self.clipboardText($0.text(for: object)) }.joined(separator: "\t")
        copy(text, what: "the row (\(shownColumns.count) columns)")
    }

    /// Copies `text` through the terminal, saying `what` was copied.
    func copy(_ text: String, what: String) {
        guard let copyToClipboard else {
            message = ("no terminal to copy through", true)
            return
        }
        copyToClipboard(text)
        message = ("copied \(what) to the clipboard", false)
    }

    /// A value as one clipboard field: tabs and line breaks become spaces, so a row pastes as
    /// one line of tab-separated cells.
    static func clipboardText(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0.isNewline }) else { return text }
        return String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }
}
