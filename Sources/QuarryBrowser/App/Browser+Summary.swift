import Quarry

extension Browser {
    /// `%`, `:summary`: shows or hides the summary line under the table and under each section
    /// header: count, sum, mean, min and max of each numeric column, count and distinct count
    /// of the others, over the rows the filter keeps, live.
    func toggleSummary() {
        if summary != nil {
            summary = nil
            table.showSectionSummaries(false)
            message = ("summary hidden", false)
            return
        }
        if let error = makeSummary() {
            message = ("cannot summarise: \(error)", true)
            return
        }
        message = ("summary: n count · sum · mean · min · max of numbers, distinct values of others (% hides)", false)
    }

    /// Makes the summary of the table's query as it is now; returns why not.
    @discardableResult
    private func makeSummary() -> String? {
        do {
            let made = try TableSummary(query: table.query, columns: table.columns, context: stack.mainContext)
            made.onChange = { [weak self] in self?.needsDisplay() }
            made.onError = { [weak self] text in self?.message = (text, true) }
            summary = made
            table.sectionSummary = { [weak made] name, columns in made?.sectionCells(name, columns: columns) ?? [] }
            table.showSectionSummaries(table.query.sectionKey != nil)
            return nil
        } catch let error as QueryError {
            return error.description
        } catch {
            return "\(error)"
        }
    }

    /// Waits until the summary line, if shown, has its figures (tests).
    public func summarySettled() async {
        await summary?.settled()
    }

    /// Makes the summary again when the table's query changed under it (a filter, another
    /// entity, a relationship's table, sections), before a frame is laid out.
    func refreshSummaryIfStale() {
        guard let summary, summary.key != TableSummary.Key(table.query) else { return }
        if let error = makeSummary() {
            self.summary = nil
            table.showSectionSummaries(false)
            message = ("summary hidden: \(error)", true)
        }
    }
}
