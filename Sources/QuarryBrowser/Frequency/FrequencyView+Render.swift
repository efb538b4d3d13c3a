import Foundation
import QuarryTUI

extension FrequencyView {
    /// The view as a table `width` cells wide showing `height` lines (its header included) at
    /// uptime `now`: the value, count, percent and bar columns, the visible rows with the
    /// cursor's and the just-changed ones highlighted. Reads only the visible rows.
    func tableView(width: Int, height: Int, now: Double) -> TableView {
        let shown = max(0, min(height - 1, rowCount - top))
        let rows = (0..<shown).map { top + $0 }
        let values = rows.map { row(at: $0).label }
        let valueWidth = min(40, max(DisplayWidth.of(keyPath) + 2, values.map(DisplayWidth.of).max() ?? 0, 6))
        let countWidth = max(String(largest).count, Self.countTitle.count + 2)
        let percentWidth = 6
        let barWidth = max(1, width - valueWidth - countWidth - percentWidth - 3)
        func column(_ index: Int, _ title: String, _ width: Int, _ alignment: TextAlignment) -> TableColumn {
            TableColumn(title: title, width: width, alignment: alignment, sortAscending: index == sortColumn ? sortAscending : nil)
        }
        let columns = [column(0, keyPath, valueWidth, .leading), column(1, Self.countTitle, countWidth, .trailing),
                       column(2, Self.percentTitle, percentWidth, .trailing), column(3, Self.barTitle, barWidth, .leading)]
        let lines = rows.map { index -> TableLine in
            var highlight: RowHighlight = []
            if index == cursor { highlight.insert(.cursor) }
            if isFlashing(index, now: now) { highlight.insert(.flash) }
            if index % 2 == 1 { highlight.insert(.alternate) }
            return .row(cells: cells(at: index, barWidth: barWidth), highlight: highlight)
        }
        return TableView(columns: columns, lines: lines, selectedColumn: columnCursor, lastColumnFills: true)
    }

    /// The status line's text: the row, the values and objects counted, and what the last
    /// live update cost (`live, last update 0.40 ms: 3 objects, 2 values, 0 store queries`):
    /// the changes are applied to the counts, `GROUP BY` is never run again.
    var statusText: String {
        let noun = bins == nil ? "value" : "bin"
        var parts = ["\(keyPath): \(noun) \(rowCount == 0 ? 0 : cursor + 1)/\(rowCount)", "\(total) \(entityName) objects"]
        if let bins { parts.append("bins of \(bins.widthText) (< >)") }
        if let update = lastUpdate {
            let how = update.recomputed ? "recounted from the store"
                : "\(update.objects) objects, \(update.groups) \(update.groups == 1 ? "value" : "values"), \(update.storeQueries) store \(update.storeQueries == 1 ? "query" : "queries")"
            parts.append("live, last update \(Self.milliseconds(update.seconds)): \(how)")
        } else if isLive {
            parts.append("live, counted in \(Self.milliseconds(fetchSeconds))")
        } else {
            parts.append("counted in \(Self.milliseconds(fetchSeconds)), going live…")
        }
        return parts.joined(separator: " · ")
    }

    /// `0.42 ms`, `12 ms`, `1.3 s`.
    static func milliseconds(_ seconds: Double) -> String {
        if seconds >= 1 { return String(format: "%.1f s", seconds) }
        let ms = seconds * 1000
        return ms < 10 ? String(format: "%.2f ms", ms) : String(format: "%.0f ms", ms)
    }
}
