import Foundation
import Quarry
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
        let time = DateFormatter()
        time.locale = Locale(identifier: "en_US_POSIX")
        time.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let tokenWidth = found.transactions.map(\.token.description.count).max() ?? 1
        for transaction in found.transactions {
            var counts: [HistoryChangeType: Int] = [:]
            var entities: [String: Int] = [:]
            for change in transaction.changes {
                counts[change.type, default: 0] += 1
                let index = Int(change.objectID.entityIndex)
                entities[index < model.entities.count ? model.entities[index].name : "?", default: 0] += 1
            }
            let token = transaction.token.description
            let touched = entities.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let line = String(repeating: " ", count: tokenWidth - token.count) + token + "  " + time.string(from: transaction.timestamp)
                + "  " + (transaction.author ?? "-") + "  +\(counts[.insert] ?? 0) ~\(counts[.update] ?? 0) -\(counts[.delete] ?? 0)"
                + (touched.isEmpty ? "" : "  (\(touched))")
            lines.append(ControlEscaping.escaped(line))
        }
        if found.hasMore { lines.append("… more after \(found.transactions.last?.token.description ?? "-"): use --since") }
        text = lines.joined(separator: "\n")
    }
}
