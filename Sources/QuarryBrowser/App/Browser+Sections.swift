import QuarryTUI

extension Browser {
    /// `za` (or Enter on a collapsed header, or a click on a header): collapses the section the
    /// cursor is in to its header and count, or expands it again.
    func toggleSectionUnderCursor() {
        guard table.query.sectionKey != nil else {
            message = ("the table has no sections (--section sets them)", true)
            return
        }
        guard let section = table.cursorSection else { return }
        toggleSection(section)
    }

    /// Collapses section `index`, or expands it when it is collapsed.
    func toggleSection(_ index: Int) {
        let collapse = !table.isCollapsed(section: index)
        table.setCollapsed(collapse, section: index)
        let name = table.sections[index].name
        message = ("\(name.isEmpty ? "(none)" : name) \(collapse ? "collapsed (za expands)" : "expanded")", false)
    }

    /// `zM` / `zR`: collapses or expands every section.
    func setAllSectionsCollapsed(_ collapse: Bool) {
        guard table.query.sectionKey != nil else {
            message = ("the table has no sections (--section sets them)", true)
            return
        }
        table.setAllCollapsed(collapse)
        message = (collapse ? "every section collapsed (zR expands)" : "every section expanded", false)
    }
}
