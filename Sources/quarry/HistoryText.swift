import Foundation
import Quarry
import QuarryBrowser
import QuarryTUI

/// `quarry history`'s text: one line per transaction (token, local time, author, counts of
/// inserts, updates and deletes, then the entities touched).
struct HistoryText {
    var text: String

    init(_ found: HistoryFetchResult, model: ManagedObjectModel, current: HistoryToken?) {
        var lines: [String] = []
        if found.isExpired { lines.append("note: history before these transactions was pruned") }
        if found.transactions.isEmpty {
            lines.append("no transactions" + (current.map { " after the given token (the newest is \($0))" } ?? " recorded yet"))
        }
        let tokenWidth = found.transactions.map(\.token.description.count).max() ?? 1
        for transaction in found.transactions {
            let summary = HistorySummary(transaction, model: model)
            let line = String(repeating: " ", count: tokenWidth - summary.token.count) + summary.token + "  " + summary.time
                + "  " + summary.author + "  " + summary.counts
            lines.append(ControlEscaping.escaped(line))
        }
        if found.hasMore { lines.append("… more after \(found.transactions.last?.token.description ?? "-"): use --since") }
        text = lines.joined(separator: "\n")
    }
}
