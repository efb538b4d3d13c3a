import Quarry
import QuarryTUI

extension Browser {
    /// `F`: the frequency view of the column under the cursor (its key path: `sector.name` for
    /// the `sector` column).
    func openFrequencyOfColumnUnderCursor() {
        let columns = shownColumns
        guard columns.indices.contains(columnView.cursor), let keyPath = columns[columnView.cursor].sortKeyPath else {
            message = ("this column's values cannot be counted (:freq KEYPATH counts a key path)", true)
            return
        }
        if let error = openFrequency(of: keyPath) { message = (error, true) }
    }

    /// Opens the frequency view of `keyPath` over the table's objects (its filter respected);
    /// returns why not.
    func openFrequency(of keyPath: String) -> String? {
        let predicate: ObjectPredicate?
        do {
            predicate = try table.query.predicate()
        } catch {
            return "cannot count: \(error)"
        }
        do {
            let view = try FrequencyView(keyPath: keyPath, entityName: table.entity.name, predicate: predicate, context: stack.mainContext)
            view.flashDuration = testHooks.highlightDuration
            view.onChange = { [weak self, weak view] in
                // Only a view on screen asks for frames; one waiting behind a filtered table
                // (Enter on a row) stays live without drawing.
                guard let self, case .frequency(let shown)? = self.overlay, shown === view else { return }
                self.needsDisplay()
            }
            view.onError = { [weak self] error in self?.message = ("\(error)", true) }
            overlay = .frequency(view)
            return nil
        } catch let error as QueryError {
            return "cannot count '\(keyPath)': \(error.description)"
        } catch {
            return "cannot count '\(keyPath)': \(error)"
        }
    }

    /// Waits until the frequency view on screen, if any, is live: its controller has read the
    /// store and follows the changes (tests, and a caller that wants the live counts).
    public func frequencyViewSettled() async {
        while let view = frequencyView, !view.isLive {
            await view.liveWaiters.wait()
        }
    }

    /// The frequency view on screen, if any.
    var frequencyView: FrequencyView? {
        if case .frequency(let view)? = overlay { return view }
        return nil
    }

    /// Keys over the frequency view.
    func handleFrequencyKey(_ key: Key, view: FrequencyView) {
        message = nil
        let page = max(1, view.pageHeight)
        switch key {
        case .escape, .character("q"), .character("F"): overlay = nil
        case .down, .character("j"): view.moveCursor(by: 1)
        case .up, .character("k"): view.moveCursor(by: -1)
        case .pageDown, .character(" "), .control("f"): view.moveCursor(by: page)
        case .pageUp, .control("b"): view.moveCursor(by: -page)
        case .control("d"): view.moveCursor(by: max(1, page / 2))
        case .control("u"): view.moveCursor(by: -max(1, page / 2))
        case .home, .character("g"): view.moveCursor(to: 0)
        case .end, .character("G"): view.moveCursor(to: view.rowCount - 1)
        case .right, .character("l"): view.columnCursor = min(3, view.columnCursor + 1)
        case .left, .character("h"): view.columnCursor = max(0, view.columnCursor - 1)
        case .character("s"), .character("S"):
            let ascending = key == .character("s")
            do {
                try view.sort(byColumn: view.columnCursor, ascending: ascending)
                message = ("sorted by \(view.columnCursor == 0 ? view.keyPath : "count") \(ascending ? "▲" : "▼")", false)
            } catch {
                message = ("cannot sort: \(error)", true)
            }
        case .enter: showRows(of: view)
        case .character("<"), .character(">"):
            if let error = view.stepBins(wider: key == .character(">")) { message = (error, true) }
        case .character("?"), .function(1):
            message = ("frequency view: ↑↓ move · Enter shows a value's rows (Esc back) · h l column · s S sort · < > bins · Esc closes", false)
        default: message = ("\(KeyHelp.name(of: key)) does nothing in the frequency view (? says what does)", false)
        }
    }

    /// Enter on a row of the frequency view: the table filtered to that value or bin (ANDed with its
    /// filter); Esc on the table comes back to the view, still live.
    func showRows(of view: FrequencyView) {
        guard let condition = view.cursorCondition?.description else { return }
        let filter = table.query.filter.map { "(\($0)) AND \(condition)" } ?? condition
        var query = table.query
        query.filter = filter
        let leaving = currentEntityView
        overlay = nil
        do {
            try startFetch(query, label: "filtering") { [weak self] error in
                guard let self else { return }
                switch error {
                case nil:
                    self.scopeReturns.append((leaving, .frequency(view)))
                    self.message = ("\(condition): \(self.table.rowCount) rows (Esc back to the frequencies)", false)
                case QueryCancellationError.cancelled?:
                    self.overlay = .frequency(view)
                case let error?:
                    self.overlay = .frequency(view)
                    self.message = ("cannot show \(condition): \(error)", true)
                }
            }
        } catch {
            overlay = .frequency(view)
            message = ("cannot show \(condition): \(error)", true)
        }
    }
}
