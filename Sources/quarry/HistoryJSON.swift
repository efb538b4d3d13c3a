import Foundation
import Quarry

/// `quarry history --json`: an object with the transactions, each with every change (entity,
/// primary key, type, changed keys, tombstone values), dates as ISO 8601.
enum HistoryJSON {
    static func text(_ found: HistoryFetchResult, model: ManagedObjectModel) throws -> String {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let transactions: [[String: Any]] = found.transactions.map { transaction in
            [
                "token": transaction.token.value,
                "timestamp": iso.string(from: transaction.timestamp),
                "author": transaction.author as Any? ?? NSNull(),
                "origin": transaction.origin.uuidString,
                "processID": Int(transaction.processID),
                "changes": transaction.changes.map { change -> [String: Any] in
                    let index = Int(change.objectID.entityIndex)
                    return [
                        "entity": index < model.entities.count ? model.entities[index].name : NSNull(),
                        "primaryKey": change.objectID.primaryKey,
                        "type": change.type.rawValue,
                        "keys": change.changedKeys,
                        "tombstone": change.tombstone.mapValues { jsonValue($0, iso: iso) },
                    ]
                },
            ]
        }
        let object: [String: Any] = ["expired": found.isExpired, "hasMore": found.hasMore, "transactions": transactions]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A stored value as a JSON value.
    static func jsonValue(_ value: Value, iso: ISO8601DateFormatter) -> Any {
        switch value {
        case .null: return NSNull()
        case .integer(let v): return v
        case .double(let v): return v.isFinite ? v : String(v)
        case .decimal(let v): return "\(v)"
        case .string(let v): return v
        case .bool(let v): return v
        case .date(let v): return iso.string(from: v)
        case .data(let v): return v.base64EncodedString()
        case .uuid(let v): return v.uuidString
        case .uri(let v): return v.absoluteString
        case .json(let v): return v.jsonText
        }
    }
}
