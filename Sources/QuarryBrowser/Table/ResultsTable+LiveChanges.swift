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
        highlightPendingRows()
        onChange?()
    }

    /// Highlights the rows the batch changed, until ``flashDuration`` from now. A large batch
    /// (an import's save) highlights only the rows on the page now shown, not thousands no one
    /// sees, each kept and pruned on every frame.
    private func highlightPendingRows() {
        defer { pendingFlash = [] }
        let until = Self.uptime() + flashDuration
        guard pendingFlash.count > flashEveryRowLimit else {
            for id in pendingFlash { flashes[id] = until }
            return
        }
        var shown = Set<ObjectID>()
        for index in top..<min(lineCount, top + pageHeight) {
            if case .row(let path) = line(at: index) { shown.insert(controller.objectID(at: path)) }
        }
        for id in pendingFlash where shown.contains(id) { flashes[id] = until }
    }

    /// The controller dropped its results: fetched again.
    func controllerDidReset() {
        try? refetch()
        onChange?()
    }

    /// Seconds since boot, the clock for highlights.
    static func uptime() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
