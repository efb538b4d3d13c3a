import Foundation
import Quarry

/// One history transaction in a line's parts, as `quarry history` prints it and the browser's
/// history view (`H`) lists it: token, local time, author, and counts of inserts, updates and
/// deletes with the entities touched.
public struct HistorySummary: Sendable {
    /// The transaction's token.
    public var token: String
    /// Its local time, `2026-11-24 10:15:02`.
    public var time: String
    /// Who saved (`-` when unknown).
    public var author: String
    /// `+50 ~449 -0`, then `  (Quote 50, Ticker 449)` when it touched any object.
    public var counts: String

    /// The summary of `transaction`, entities named from `model`.
    public init(_ transaction: HistoryTransaction, model: ManagedObjectModel) {
        var byType: [HistoryChangeType: Int] = [:]
        var entities: [String: Int] = [:]
        for change in transaction.changes {
            byType[change.type, default: 0] += 1
            let index = Int(change.objectID.entityIndex)
            entities[index < model.entities.count ? model.entities[index].name : "?", default: 0] += 1
        }
        let touched = entities.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        token = transaction.token.description
        time = Self.formatter.string(from: transaction.timestamp)
        author = transaction.author ?? "-"
        counts = "+\(byType[.insert] ?? 0) ~\(byType[.update] ?? 0) -\(byType[.delete] ?? 0)" + (touched.isEmpty ? "" : "  (\(touched))")
    }

    private static let formatter: DateFormatter = {
        let time = DateFormatter()
        time.locale = Locale(identifier: "en_US_POSIX")
        time.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return time
    }()
}
