import Quarry

extension ResultsTable {
    /// One display line.
    enum Line: Equatable {
        /// The header of section `index`.
        case section(Int)
        /// A row.
        case row(RowPath)
        /// The summary line of section `index` (under its header, when the summary is shown).
        case summary(Int)
    }

    /// The sections of the results (one unnamed section when not sectioned).
    var sections: [SectionInfo] { controller.sections }

    /// How many objects the table shows.
    var rowCount: Int { controller.count }

    /// How many display lines there are.
    var lineCount: Int { lines.count }

    /// Display index of each section's header line (empty when the table is not sectioned).
    var sectionStarts: [Int] { lines.sectionStarts }

    /// Whether the lines include section headers.
    var isSectioned: Bool { query.sectionKey != nil }

    /// Recomputes the lines from the controller's sections and the collapsed ones.
    func recomputeLines() {
        lines = DisplayLines(sections: controller.sections, sectioned: isSectioned, rowCount: controller.count,
                             collapsed: collapsedSections, summaries: showsSectionSummaries)
    }

    /// What display line `index` is.
    func line(at index: Int) -> Line { lines.line(at: index) }

    /// The display line of `path` (its section's header when the section is collapsed).
    func displayIndex(of path: RowPath) -> Int {
        guard isSectioned else { return path.row }
        return isCollapsed(section: path.section) ? sectionStarts[path.section]
            : sectionStarts[path.section] + 1 + (lines.hasSummaries ? 1 : 0) + path.row
    }

    /// The display line of the object `id`, if it is in the results.
    func displayIndex(of id: ObjectID) -> Int? {
        controller.indexPath(forObjectID: id).map(displayIndex(of:))
    }
}
