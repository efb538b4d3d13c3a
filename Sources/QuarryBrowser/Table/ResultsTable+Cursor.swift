import Quarry

extension ResultsTable {
    /// The row path under the cursor, if there are rows.
    var cursorPath: RowPath? {
        guard lineCount > 0, case .row(let path) = line(at: cursor) else { return nil }
        return path
    }

    /// The 1-based position of the cursor's row among all rows (for `row r/N`).
    var cursorRowNumber: Int {
        guard let path = cursorPath else { return 0 }
        let before = sections.prefix(path.section).reduce(0) { $0 + $1.numberOfObjects }
        return previewOffset + before + path.row + 1
    }

    /// Puts the cursor on display line `index` (clamped; a section header moves it to the row below,
    /// or above at the end) and scrolls so it is visible.
    func moveCursor(to index: Int, preferDown: Bool = true) {
        guard lineCount > 0 else {
            cursor = 0
            top = 0
            cursorID = nil
            return
        }
        var target = min(max(0, index), lineCount - 1)
        if !isCursorStop(target) {
            // A header (and its summary line) is passed over: down when moving down, else up.
            let down = nearestStop(from: target, step: 1), up = nearestStop(from: target, step: -1)
            target = (preferDown ? down ?? up : up ?? down) ?? target
        }
        cursor = target
        cursorID = cursorPath.map(controller.objectID(at:))
        cursorSectionName = cursorPath == nil ? cursorSection.map { controller.sections[$0].name } : nil
        scrollToCursor()
    }

    /// Moves the cursor `delta` lines, skipping section headers.
    func moveCursor(by delta: Int) {
        moveCursor(to: cursor + delta, preferDown: delta >= 0)
    }

    /// The first row.
    func moveToTop() { top = 0; moveCursor(to: 0) }

    /// The last row.
    func moveToBottom() { moveCursor(to: lineCount - 1, preferDown: false) }

    /// One page down (`pages` > 0) or up, keeping the cursor's screen row.
    func page(by pages: Int) {
        let step = max(1, pageHeight - 1) * pages
        let screenRow = cursor - top
        top += step
        clampTop()
        let target = top + screenRow
        // Where the view cannot scroll further, the cursor still moves a page (to the end).
        moveCursor(to: (target == cursor) ? cursor + step : target, preferDown: pages > 0)
    }

    /// Recomputes the lines after the results were replaced; with `keepingCursor`, the cursor
    /// stays on its object (at the same screen row) when it is still there. Returns whether it did.
    @discardableResult
    func recomputeLines(keepingCursor: Bool) -> Bool {
        let keep = cursorID
        let screenRow = cursor - top
        recomputeLines()
        guard keepingCursor, let keep, let index = displayIndex(of: keep) else { return false }
        cursor = index
        top = cursor - screenRow
        clampTop()
        cursorID = keep
        return true
    }

    /// Whether display line `index` is one the cursor may rest on: a row, or the header of a
    /// collapsed section (its only line but its summary).
    private func isCursorStop(_ index: Int) -> Bool {
        switch line(at: index) {
        case .row: return true
        case .section(let s): return isCollapsed(section: s)
        case .summary: return false
        }
    }

    /// The first line the cursor may rest on from `index` going `step` (±1), within the two
    /// lines a header and its summary take.
    private func nearestStop(from index: Int, step: Int) -> Int? {
        var candidate = index + step
        for _ in 0..<2 where candidate >= 0 && candidate < lineCount {
            if isCursorStop(candidate) { return candidate }
            candidate += step
        }
        return nil
    }

    /// Scrolls as little as needed to show the cursor (and the header of its section when it is
    /// the section's first row).
    func scrollToCursor() {
        if cursor < top { top = cursor }
        if cursor >= top + pageHeight { top = cursor - pageHeight + 1 }
        if isSectioned, top == cursor, cursor > 0, case .section = line(at: cursor - 1) { top = cursor - 1 }
        if isSectioned, top == cursor, cursor > 1, case .summary = line(at: cursor - 1) { top = cursor - 2 }
        clampTop()
    }

    /// Keeps the first line shown within the lines, a full page shown when there are enough.
    func clampTop() {
        top = max(0, min(top, lineCount - pageHeight))
        top = max(0, top)
    }
}
