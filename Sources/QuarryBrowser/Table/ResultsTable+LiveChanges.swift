import Dispatch
import Quarry

extension ResultsTable {
    /// Keeps the row of `id` as it is now until ``unfreeze()`` (an edit form is open on it).
    func freeze(_ id: ObjectID) {
        guard frozenRow?.id != id else { return }
        let object = context.object(with: id)
        var cells: [ColumnSpec.Source: String] = [:]
        for column in columns { cells[column.source] = column.text(for: object) }
        frozenRow = (id, cells)
    }

    /// Lets the frozen row follow the live merge again.
    func unfreeze() {
        guard let frozen = frozenRow else { return }
        frozenRow = nil
        flashes[frozen.id] = nil
    }

    /// Drops expired highlights; returns the uptime at which the next one expires, if any.
    func pruneFlashes(now: Double) -> Double? {
        flashes = flashes.filter { $0.value > now }
        return flashes.values.min()
    }

    /// The controller delivered a batch of changes: the lines are recomputed, the rows it
    /// changed highlighted, and the cursor kept on its object at the same screen row.
    func controllerDidChange() {
        changeBatches += 1
        let screenRow = cursor - top
        let previous = cursor
        recomputeLines()
        let until = Self.uptime() + flashDuration
        for id in pendingFlash { flashes[id] = until }
        pendingFlash = []
        if followsTop {
            moveToTop()
        } else if let name = cursorSectionName, let index = sections.firstIndex(where: { $0.name == name }), isCollapsed(section: index) {
            cursor = sectionStarts[index]
            top = cursor - screenRow
            clampTop()
        } else if let id = cursorID, let index = displayIndex(of: id) {
            cursor = index
            top = cursor - screenRow
            clampTop()
            if cursor < top || cursor >= top + pageHeight { scrollToCursor() }
        } else {
            moveCursor(to: previous)
            top = cursor - screenRow
            clampTop()
        }
        onChange?()
    }

    /// The controller dropped its results: fetched again.
    func controllerDidReset() {
        try? refetch()
        onChange?()
    }

    /// Seconds since boot, the clock for highlights.
    static func uptime() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
