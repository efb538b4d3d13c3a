import Foundation
import Quarry
import QuarryTUI

/// `:since TOKEN` and `:since 10m`: the objects inserted, updated and deleted since a history
/// point, from persistent history, kept live as transactions arrive.
extension Browser {
    /// Opens the `:since` view for `argument` (a history token, or a time ago: `90s`, `10m`,
    /// `2h`, `1d`); returns why not.
    func openSince(_ argument: String) -> String? {
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

    /// Keeps the `:since` page up to date: after each change the main context sees (a save, a
    /// merge, a remote change), the transactions after the last one read are read.
    private func followSince() {
        guard sinceObservation == nil else { return }
        sinceObservation = stack.mainContext.addObjectsDidChangeObserver { [weak self] _ in
            MainActor.assumeIsolated { self?.refreshSince() }
        }
    }

    /// Reads what arrived since the page was made, if a `:since` page is showing.
    func refreshSince() {
        guard case .text(var pages) = overlay, let last = pages.last, let view = last.since else { return }
        do {
            guard try view.update() else { return }
        } catch {
            message = ("cannot read the history: \(error)", true)
            return
        }
        var page = sincePage(view)
        page.selected = min(last.selected, max(0, page.entries.count - 1))
        pages[pages.count - 1] = page
        overlay = .text(pages)
        needsDisplay()
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
