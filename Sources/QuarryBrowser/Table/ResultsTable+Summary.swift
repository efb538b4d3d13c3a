extension ResultsTable {
    /// Shows (or hides) a summary line under each section header (`%`), the cursor staying on
    /// its row.
    func showSectionSummaries(_ shows: Bool) {
        guard shows != showsSectionSummaries else { return }
        showsSectionSummaries = shows
        if !recomputeLines(keepingCursor: true) { moveCursor(to: cursor) }
        onChange?()
    }
}
