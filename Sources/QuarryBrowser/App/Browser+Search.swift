import Quarry
import QuarryTUI

extension Browser {
    /// The key the search looks in: the first sort key that is not the section key.
    var searchKey: SortKey? { table.query.userSort.first ?? table.query.effectiveSort.first }

    /// `/`: a search in the column under the cursor; the sort key's column (or a column that
    /// cannot be searched) searches the sort key, incrementally, by binary search.
    func openSearch() {
        let state = PromptState(kind: .search, text: "", origin: table.cursorID)
        let columns = shownColumns
        if columns.indices.contains(columnView.cursor), let keyPath = columns[columnView.cursor].sortKeyPath, keyPath != searchKey?.keyPath {
            state.searchColumn = columns[columnView.cursor]
        }
        overlay = .prompt(state)
    }

    /// `n` / `N`: the next or previous row matching the last search.
    func repeatSearch(forward: Bool) {
        guard let text = lastSearch else {
            message = ("no search yet: / searches", true)
            return
        }
        if let column = lastSearchColumn {
            do {
                if try !searchColumn(column, for: text, from: table.cursor, forward: forward, includeStart: false) {
                    message = ("no more rows whose \(column.title) starts with \"\(text)\"", true)
                }
            } catch {
                message = ("cannot search \(column.title): \(error)", true)
            }
            return
        }
        if !search(text, from: table.cursor, forward: forward, includeStart: false) {
            message = ("no more matches for \"\(text)\"", true)
        }
    }

    /// Moves the cursor to the first row at or after (before) display line `start` whose search
    /// key starts with `text` (case- and accent-insensitively; numbers and dates: the first value
    /// at or past it). Each section is searched by binary search on its sort order, faulting in
    /// only the rows it probes. Returns whether a row was found.
    @discardableResult
    func search(_ text: String, from start: Int, forward: Bool, includeStart: Bool) -> Bool {
        guard let key = searchKey, table.rowCount > 0 else { return false }
        let sections = table.sections
        let startLine = min(max(0, start), max(0, table.lineCount - 1))
        let startPath: RowPath = {
            if case .row(let path) = table.line(at: startLine) { return path }
            if case .section(let s) = table.line(at: startLine) { return RowPath(section: s, row: 0) }
            if case .summary(let s) = table.line(at: startLine) { return RowPath(section: s, row: 0) }
            return RowPath(section: 0, row: 0)
        }()
        let probes = probeValues(for: text, key: key)
        let s0 = startPath.section
        let order = forward
            ? Array(s0..<sections.count) + Array(0..<s0) + [s0]
            : Array((0...s0).reversed()) + Array(((s0 + 1)..<sections.count).reversed()) + [s0]
        for (visit, section) in order.enumerated() where sections[section].numberOfObjects > 0 {
            let count = sections[section].numberOfObjects
            var candidates: [Int] = []
            for probe in probes {
                guard let run = matchRun(probe, text: text, key: key, section: section, count: count) else { continue }
                if visit == 0 {
                    if forward {
                        let row = max(run.lowerBound, includeStart ? startPath.row : startPath.row + 1)
                        if row < run.upperBound { candidates.append(row) }
                    } else {
                        let row = min(run.upperBound - 1, includeStart ? startPath.row : startPath.row - 1)
                        if row >= run.lowerBound { candidates.append(row) }
                    }
                } else {
                    candidates.append(forward ? run.lowerBound : run.upperBound - 1)
                }
            }
            if let pick = forward ? candidates.min() : candidates.max() {
                table.reveal(RowPath(section: section, row: pick))
                return true
            }
        }
        return false
    }

    /// Moves the cursor to the next (previous) row at or after (before) display line `start`
    /// whose `column` starts with `text` (case- and accent-insensitively; a number typed into a
    /// number column matches that value), wrapping around. The store is asked for the IDs of the
    /// matching rows (the table's filter applied); each is located in the index by ID and the
    /// nearest after (before) the cursor is taken, so no row is faulted in to compare.
    /// Returns whether a row was found.
    /// - Throws: when `text` does not parse as the column's type, or the store query fails.
    @discardableResult
    func searchColumn(_ column: ColumnSpec, for text: String, from start: Int, forward: Bool, includeStart: Bool) throws -> Bool {
        guard let keyPath = column.sortKeyPath else { return false }
        let match: ObjectPredicate
        if case .attribute(_, let type) = column.source, ValueText.isNumeric(type) {
            guard let number = Double(text) else { throw ValueTextError("expected a number") }
            match = try ObjectPredicate(format: "%K == %@", .value(.string(keyPath)), .value(.double(number)))
        } else if case .attribute(_, let type) = column.source, type != .string {
            match = try ObjectPredicate(format: "%K == %@", .value(.string(keyPath)), .value(try ValueText.parse(text, as: type, optional: true)))
        } else {
            match = try ObjectPredicate(format: "%K BEGINSWITH[cd] %@", .value(.string(keyPath)), .value(.string(text)))
        }
        let predicate = try table.query.predicate().map { ObjectPredicate.and([$0, match]) } ?? match
        let matches = try stack.mainContext.fetchObjectIDs(FetchRequest(entityName: table.query.entityName, predicate: predicate))
        let located = matches.compactMap { id in table.controller.indexPath(forObjectID: id).map { (path: $0, line: table.displayIndex(of: $0)) } }
        let after = located.filter { forward ? (includeStart ? $0.line >= start : $0.line > start) : (includeStart ? $0.line <= start : $0.line < start) }
        // Wrapping around: the first (last) match of all when none lies past the cursor.
        let candidates = after.isEmpty ? located : after
        guard let pick = forward ? candidates.min(by: { $0.line < $1.line }) : candidates.max(by: { $0.line < $1.line }) else { return false }
        if pick.line == start && !includeStart && located.count == 1 { return false }
        table.reveal(pick.path)
        return true
    }

    /// The rows of `section` matching `text`: they are contiguous in the sort order, from the
    /// lower bound of `probe`; the end is found by galloping then bisecting (O(log n) probes).
    private func matchRun(_ probe: Value, text: String, key: SortKey, section: Int, count: Int) -> Range<Int>? {
        let low = lowerBound(probe, key: key, section: section, count: count)
        guard low < count, matchesPrefix(row: low, section: section, text: text, key: key) else { return nil }
        var good = low, bad = count, step = 1
        while good + step < count {
            if matchesPrefix(row: good + step, section: section, text: text, key: key) {
                good += step
                step *= 2
            } else {
                bad = good + step
                break
            }
        }
        while bad - good > 1 {
            let mid = (good + bad) / 2
            if matchesPrefix(row: mid, section: section, text: text, key: key) { good = mid } else { bad = mid }
        }
        return low..<(good + 1)
    }

    /// The values to look for: the text as typed and in upper and lower case (for binary order).
    private func probeValues(for text: String, key: SortKey) -> [Value] {
        if let number = Double(text) { return [.double(number)] }
        var values: [Value] = [.string(text)]
        if key.comparison == .binary {
            for variant in [text.uppercased(), text.lowercased()] where !values.contains(.string(variant)) {
                values.append(.string(variant))
            }
        }
        return values
    }

    /// The first row of `section` whose key is not before `probe` in the key's order.
    private func lowerBound(_ probe: Value, key: SortKey, section: Int, count: Int) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            var c = key.compare(value(row: mid, section: section, key: key), probe)
            if !key.ascending { c = -c }
            if c < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func value(row: Int, section: Int, key: SortKey) -> Value {
        let object = table.controller.object(at: RowPath(section: section, row: row))
        return Self.value(of: object, keyPath: key.keyPath)
    }

    private func matchesPrefix(row: Int, section: Int, text: String, key: SortKey) -> Bool {
        let value = value(row: row, section: section, key: key)
        switch value {
        case .integer, .double, .decimal: if Double(text) != nil { return true }
        default: break
        }
        let shown = ValueText.format(value)
        return shown.range(of: text, options: [.caseInsensitive, .diacriticInsensitive, .anchored]) != nil
    }

    /// The value at `keyPath` (to-one steps followed) of `object`.
    static func value(of object: ManagedObject, keyPath: String) -> Value {
        var current: ManagedObject? = object
        let steps = keyPath.split(separator: ".").map(String.init)
        for step in steps.dropLast() { current = current.flatMap { try? $0.object(forKey: step) } }
        guard let current, let last = steps.last else { return .null }
        return (try? current.value(forKey: last)) ?? .null
    }
}
