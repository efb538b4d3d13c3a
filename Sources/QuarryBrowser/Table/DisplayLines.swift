import Quarry

/// Which display line of a ``ResultsTable`` is what: in a sectioned table each section is its
/// header line, its summary line when the summary is shown (`%`), then its rows (none when
/// collapsed); otherwise every line is a row.
///
/// A value computed from the controller's sections whenever they or the collapsed set change;
/// finding a line's section is a binary search over the section starts.
struct DisplayLines {
    /// Display index of each section's header line (empty when the table is not sectioned).
    private(set) var sectionStarts: [Int] = []
    /// How many display lines there are.
    private(set) var count = 0
    /// Whether the lines include section headers.
    private(set) var isSectioned = false
    /// Whether each section header is followed by its summary line.
    private(set) var hasSummaries = false

    /// No lines.
    init() {}

    /// The lines of `sections` (the controller's `rowCount` rows), headers (and with
    /// `summaries` a summary line under each) included when `sectioned`, the rows of the
    /// sections named in `collapsed` left out.
    init(sections: [SectionInfo], sectioned: Bool, rowCount: Int, collapsed: Set<String>, summaries: Bool = false) {
        isSectioned = sectioned
        hasSummaries = sectioned && summaries
        guard sectioned else {
            count = rowCount
            return
        }
        var index = 0
        sectionStarts.reserveCapacity(sections.count)
        for section in sections {
            sectionStarts.append(index)
            index += 1 + (hasSummaries ? 1 : 0) + (collapsed.contains(section.name) ? 0 : section.numberOfObjects)
        }
        count = index
    }

    /// What display line `index` is.
    func line(at index: Int) -> ResultsTable.Line {
        guard isSectioned else { return .row(RowPath(section: 0, row: index)) }
        var low = 0, high = sectionStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sectionStarts[mid] <= index { low = mid } else { high = mid - 1 }
        }
        let offset = index - sectionStarts[low]
        if offset == 0 { return .section(low) }
        if hasSummaries { return offset == 1 ? .summary(low) : .row(RowPath(section: low, row: offset - 2)) }
        return .row(RowPath(section: low, row: offset - 1))
    }
}
