import Foundation
import Quarry
import QuarryTUI

/// `:since TOKEN` and `:since 10m`: the objects inserted, updated and deleted since a history
/// point, from persistent history, kept live as transactions arrive. The table marks the cells
/// changed since the point (the whole row of an inserted object) until `:since off`; `x` on
/// the list exports it.
extension Browser {
    /// Opens the `:since` view for `argument` (a history token, or a time ago: `90s`, `10m`,
    /// `2h`, `1d`), or with `off` clears the marks; returns why not.
    func openSince(_ argument: String) -> String? {
        if argument == "off" {
            message = (sinceMarks == nil ? "no :since marks to clear" : "the :since marks are cleared", false)
            sinceMarks = nil
            sinceObservation?.cancel()  // a token does not stop its observer when released
            sinceObservation = nil
            return nil
        }
        guard let store = stack.historyStore else { return "this store records no persistent history" }
        do {
            let token: HistoryToken
            if let number = Int64(argument) {
                guard number >= 0 else { return "a history token is 0 or more (got \(argument))" }
                token = HistoryToken(number)
            } else if let seconds = Self.secondsAgo(argument) {
                token = try Self.lastToken(before: Date().addingTimeInterval(-seconds), in: store)
            } else {
                return "since takes a history token (1234) or a time ago (90s, 10m, 2h, 1d), not '\(argument)'"
            }
            if try store.history(after: token, limit: 1).isExpired {
                return "the history kept starts after \(argument): older changes were pruned (H shows the oldest kept)"
            }
            let view = try SinceView(after: token, label: argument, store: store)
            sinceMarks = view
            overlay = .text([sincePage(view)])
            followSince()
            return nil
        } catch {
            return "cannot read the history: \(error)"
        }
    }

    /// `view` as a page, objects named by their display key.
    func sincePage(_ view: SinceView) -> ListPage {
        view.page(model: stack.model, name: objectNamer)
    }

    /// Keeps the `:since` view (its page and the table's marks) up to date: after each change
    /// the main context sees (a save, a merge, a remote change), the transactions after the last
    /// one read are read.
    private func followSince() {
        guard sinceObservation == nil else { return }
        sinceObservation = stack.mainContext.addObjectsDidChangeObserver { [weak self] _ in
            MainActor.assumeIsolated { self?.refreshSince() }
        }
    }

    /// Reads what arrived since the view was last read, and remakes its page if it is showing.
    func refreshSince() {
        guard let view = sinceMarks else { return }
        do {
            guard try view.update() else { return }
        } catch {
            message = ("cannot read the history: \(error)", true)
            return
        }
        needsDisplay()
        guard case .text(var pages) = overlay, let last = pages.last, last.since === view else { return }
        var page = sincePage(view)
        page.selected = min(last.selected, max(0, page.entries.count - 1))
        pages[pages.count - 1] = page
        overlay = .text(pages)
        needsDisplay()
    }

    /// For the table's rows at `lines` showing `objects` (one per row line, in order) under the
    /// `columns` shown: per line index, the columns to mark as changed since the `:since`
    /// point — every column of an inserted object, the updated keys' columns of another.
    func sinceMarkedCells(lines: [TableLine], objects: [ManagedObject], columns: [ColumnSpec]) -> [Int: Set<Int>] {
        guard let view = sinceMarks, !view.entries.isEmpty else { return [:] }
        var marked: [Int: Set<Int>] = [:]
        var next = 0
        for (index, line) in lines.enumerated() {
            guard case .row(_, let highlight) = line, !highlight.contains(.summary), next < objects.count else { continue }
            let object = objects[next]
            next += 1
            guard let entry = view.entries[object.objectID], !entry.deleted else { continue }
            var cells = Set<Int>()
            for (column, spec) in columns.enumerated() where entry.inserted || entry.keys.contains(spec.key) { cells.insert(column) }
            if !cells.isEmpty { marked[index] = cells }
        }
        return marked
    }

    /// `x` on a `:since` page: the export prompt for its list (`since-10m.csv` suggested).
    func beginSinceExport(_ pages: [ListPage]) {
        guard let view = pages.last?.since else { return }
        let state = PromptState(kind: .export, text: "since-\(view.label).csv")
        state.sincePages = pages
        overlay = .prompt(state)
    }

    /// Writes the list of the `:since` page on top of `pages` to the file `text` (CSV, or JSON
    /// Lines and JSON by extension): a record per object with the change, entity, object ID,
    /// display name, keys updated and history token, newest first. An existing file is replaced
    /// only once the user says yes (or with `replacing`), as the table's export does. Returns
    /// the prompt's error.
    func exportSince(_ pages: [ListPage], to text: String, replacing: Bool = false) -> String? {
        guard let view = pages.last?.since else { return "the :since page is gone" }
        let url: URL
        switch exportDestination(text, replacing: replacing, again: { [weak self] in self?.exportSince(pages, to: text, replacing: true) }) {
        case .refused(let error): return error
        case .asking: return nil
        case .ready(let ready): url = ready
        }
        let formatter = ExportOperation.formatter(forPathExtension: url.pathExtension, columns: nil)
        do {
            let count = try RecordExport.write(headers: SinceView.exportHeaders, records: view.records(model: stack.model, name: objectNamer),
                                               to: .file(url), formatter: formatter)
            message = ("exported \(count) changes to \(url.path)", false)
            return nil
        } catch {
            return "export failed, nothing written: \(error)"
        }
    }

    /// `90s`, `10m`, `2h`, `1d` in seconds; `nil` for anything else.
    static func secondsAgo(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let number = Double(text.dropLast()), number >= 0 else { return nil }
        switch unit {
        case "s": return number
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86_400
        default: return nil
        }
    }

    /// The newest history token whose transaction is older than `date` (0 when none is): the
    /// transactions after it are those at or after `date`. A binary search over the tokens,
    /// reading one transaction a step.
    static func lastToken(before date: Date, in store: any PersistentHistoryStore) throws -> HistoryToken {
        guard let current = try store.currentHistoryToken()?.value else { return HistoryToken(0) }
        var low: Int64 = 0, high = current
        while low < high {
            let mid = (low + high + 1) / 2
            guard let found = try store.history(after: HistoryToken(mid - 1), limit: 1).transactions.first else {
                high = mid - 1
                continue
            }
            if found.timestamp < date { low = max(mid, found.token.value) } else { high = mid - 1 }
        }
        return HistoryToken(low)
    }
}
