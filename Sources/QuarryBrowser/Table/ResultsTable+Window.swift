import Quarry
import QuarryTUI

extension ResultsTable {
    /// The lines from ``top`` that a table area `height` lines tall shows, with the text of
    /// the `shown` columns and their highlights (cursor, alternate rows, a row being edited,
    /// when a live change's highlight ends). Faults in only these rows; changes nothing.
    func window(height: Int, columns shown: [ColumnSpec]) -> TableWindow {
        guard lineCount > 0 else { return TableWindow() }
        var window = TableWindow()
        let sections = controller.sections
        let range = top..<min(lineCount, top + height)
        window.lines.reserveCapacity(range.count)
        window.highlightEnds.reserveCapacity(range.count)
        for index in range {
            switch line(at: index) {
            case .section(let s):
                window.lines.append(.section(title: sections[s].name.isEmpty ? "(none)" : sections[s].name,
                                             count: sections[s].numberOfObjects,
                                             highlight: index == cursor ? .cursor : [], isCollapsed: isCollapsed(section: s)))
                window.highlightEnds.append(nil)
            case .summary(let s):
                window.lines.append(.row(cells: sectionSummary?(sections[s].name, shown) ?? [], highlight: .summary))
                window.highlightEnds.append(nil)
            case .row(let path):
                let object = controller.object(at: path)
                window.objects.append(object)
                var highlight: RowHighlight = []
                if index == cursor { highlight.insert(.cursor) }
                if path.row % 2 == 1 { highlight.insert(.alternate) }
                if !selection.isEmpty && selection.contains(object.objectID) { highlight.insert(.selected) }
                if let frozen = frozenRow, frozen.id == object.objectID {
                    highlight.insert(.pending)
                    window.lines.append(.row(cells: shown.map { frozen.cells[$0.source] ?? $0.text(for: object) }, highlight: highlight))
                    window.highlightEnds.append(nil)
                    continue
                }
                window.lines.append(.row(cells: shown.map { $0.text(for: object) }, highlight: highlight))
                window.highlightEnds.append(flashes[object.objectID])
            }
        }
        return window
    }

    /// Keeps the objects of `window` (the one laid out) registered in the main context, so the
    /// smart merge refreshes them and the next layout does not fault them again.
    func hold(_ window: TableWindow) {
        visibleObjects = window.objects
    }
}
