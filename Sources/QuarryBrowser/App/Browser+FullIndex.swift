import Foundation
import Quarry

extension Browser {
    /// Runs `action` now when the table holds all of its rows, else once the full index is in:
    /// a key that needs every row (`G`, a section jump, a search) waits for it rather than act
    /// on the preview's rows, and the status line says so meanwhile.
    func afterFullIndex(_ action: @escaping @MainActor () -> Void) {
        guard !table.isComplete else { return action() }
        fetches.waitingForIndex.append(action)
        message = ("reading every row… (the key acts when the index is complete)", false)
    }

    /// The full index replaced the preview (or failed to: `error`); runs the waiting keys.
    func fullIndexArrived(_ error: Error?) {
        let waiting = fetches.waitingForIndex
        fetches.waitingForIndex = []
        if let error {
            message = ("could not read every row: \(error)", true)
        } else if message?.text.hasPrefix("reading every row") == true {
            message = nil
        }
        for action in waiting { action() }
        needsDisplay()
        fetches.indexWaiters.resumeAll()
    }

    /// Waits until the table holds all of its rows (tests).
    public func fullIndexSettled() async {
        while !table.isComplete {
            await fetches.indexWaiters.wait()
        }
    }

    /// "≥300…" while the table shows a preview ("≈1000000…" when the store gave an estimate
    /// of an unfiltered table's rows; the count when a preview around an object counted them),
    /// else the row count.
    var rowCountText: String {
        if table.isComplete { return "\(table.rowCount)" }
        if let total = table.previewTotal { return "\(total)" }
        let shown = table.previewOffset + table.rowCount
        // The store's estimate is of the first table's rows, unfiltered.
        if let estimate = configuration.estimatedRowCount, table.query.filter == nil, table.query.scope == nil,
           table.entity.name == configuration.entityName, estimate > shown {
            return "≈\(estimate)…"
        }
        return "≥\(shown)…"
    }
}

/// Hands the full index's arrival to the browser, which does not exist yet when the table
/// (and its fetch) is made. Main queue only.
@MainActor
final class IndexCompletion {
    weak var browser: Browser?
    private var arrived: (Error?)?

    /// The index arrived: tell the browser, or keep it until the browser is set.
    func run(_ error: Error?) {
        if let browser { browser.fullIndexArrived(error) } else { arrived = .some(error) }
    }

    /// The browser exists: tell it of an index that arrived before.
    func attach(_ browser: Browser) {
        self.browser = browser
        if let arrived { browser.fullIndexArrived(arrived) }
    }
}

/// The name of the fetched-results cache of a browser's first query: one per store, entity,
/// order, sections and filter, so reopening the same view of an unchanged store reads its
/// index back (the cache itself checks the store's save token and the request).
enum IndexCacheName {
    /// `browse-<16 hex digits>`, or `nil` for a store without a URL (in memory).
    static func make(store: URL?, query: TableQuery) -> String? {
        guard let store else { return nil }
        let parts = [store.isFileURL ? store.standardizedFileURL.path : store.absoluteString, query.entityName,
                     query.effectiveSort.map { "\($0.keyPath) \($0.ascending) \($0.comparison)" }.joined(separator: ","),
                     query.sectionKey ?? "", query.filter ?? ""]
        // FNV-1a: stable across runs (Swift's Hasher is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{0}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "browse-" + String(hash, radix: 16).leftPadded(to: 16)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
