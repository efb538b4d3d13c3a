import Quarry
import QuarryTUI

/// The lines of a ``ResultsTable`` on screen, as laid out: each line's text and highlight,
/// when its live-change highlight ends, and the objects shown.
///
/// Made by ``ResultsTable/window(height:columns:)`` (which faults in only these rows); drawing
/// it is ``lines(now:)``, which does no per-row work beyond adding the highlights not yet ended.
@MainActor
struct TableWindow {
    /// The lines, without live-change highlights.
    var lines: [TableLine] = []
    /// For each line, the uptime (seconds) its live-change highlight ends, if it has one.
    var highlightEnds: [Double?] = []
    /// The objects of the rows shown, held so they stay registered in the main context: the
    /// smart merge refreshes them (and only them), and laying out again does not fault them.
    var objects: [ManagedObject] = []

    /// The lines to draw at uptime `now`: rows changed by the live merge a moment ago
    /// highlighted, until their highlight ends.
    func lines(now: Double) -> [TableLine] {
        guard highlightEnds.contains(where: { $0 != nil }) else { return lines }
        var result = lines
        for (index, end) in highlightEnds.enumerated() {
            guard let end, end > now, case .row(let cells, var highlight) = result[index] else { continue }
            highlight.insert(.flash)
            result[index] = .row(cells: cells, highlight: highlight)
        }
        return result
    }
}
