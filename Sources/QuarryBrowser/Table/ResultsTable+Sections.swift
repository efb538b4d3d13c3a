import Quarry

extension ResultsTable {
    /// Whether section `index` shows its header alone.
    func isCollapsed(section index: Int) -> Bool {
        isSectioned && !collapsedSections.isEmpty && collapsedSections.contains(controller.sections[index].name)
    }

    /// The section the cursor is in (on one of its rows, or on its collapsed header).
    var cursorSection: Int? {
        guard isSectioned, lineCount > 0 else { return nil }
        switch line(at: cursor) {
        case .row(let path): return path.section
        case .section(let s), .summary(let s): return s
        }
    }

    /// Collapses (`true`) or expands section `index`, the cursor moving to its header or to its
    /// first row; other sections' rows keep their place on screen.
    func setCollapsed(_ collapse: Bool, section index: Int) {
        guard isSectioned, controller.sections.indices.contains(index) else { return }
        let name = controller.sections[index].name
        guard collapse != collapsedSections.contains(name) else { return }
        if collapse { collapsedSections.insert(name) } else { collapsedSections.remove(name) }
        recomputeLines()
        moveCursor(to: collapse ? sectionStarts[index] : sectionStarts[index] + 1)
    }

    /// Collapses exactly the sections named in `names` (a view restored); the cursor stays on
    /// its object when its section stays open.
    func restoreCollapsedSections(_ names: Set<String>) {
        guard isSectioned, names != collapsedSections else { return }
        collapsedSections = names
        recomputeLines(keepingCursor: true)
        if cursorPath == nil { moveCursor(to: cursor) }
    }

    /// Puts the cursor on `path`'s row, expanding its section first when it is collapsed.
    func reveal(_ path: RowPath) {
        if isCollapsed(section: path.section) { setCollapsed(false, section: path.section) }
        moveCursor(to: displayIndex(of: path))
    }

    /// Collapses (`true`) or expands every section; the cursor stays in its section.
    func setAllCollapsed(_ collapse: Bool) {
        guard isSectioned else { return }
        let section = cursorSection
        collapsedSections = collapse ? Set(controller.sections.map(\.name)) : []
        recomputeLines()
        guard let section, sectionStarts.indices.contains(section) else { return moveCursor(to: 0) }
        moveCursor(to: collapse ? sectionStarts[section] : sectionStarts[section] + 1)
        if collapse { top = 0; scrollToCursor() }
    }

    /// The first row of the next (`+1`) or previous (`-1`) section.
    func jumpSection(by delta: Int) {
        guard isSectioned, let section0 = cursorSection else { return }
        var section = section0
        if delta < 0, let path = cursorPath, path.row > 0 {
            // `[` first goes to the top of the current section.
        } else {
            // A count past the first or last section stops there.
            section = max(0, min(sectionStarts.count - 1, section + delta))
        }
        guard sectionStarts.indices.contains(section) else { return }
        moveCursor(to: isCollapsed(section: section) ? sectionStarts[section] : sectionStarts[section] + 1)
        top = sectionStarts[section]
        clampTop()
    }
}
