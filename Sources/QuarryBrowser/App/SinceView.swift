import Foundation
import Quarry
import QuarryTUI

/// What changed since a history point (`:since TOKEN`, `:since 10m`): each object inserted,
/// updated (with the keys) or deleted after the point, read from persistent history (never a
/// scan of a table) and followed as more transactions arrive — only the transactions after
/// the last one read are read again.
@MainActor
final class SinceView {
    /// What happened to one object since the point, all transactions taken together.
    struct Entry {
        /// Inserted since the point (then perhaps updated: still "inserted").
        var inserted = false
        /// Deleted since the point (the last change).
        var deleted = false
        /// The keys updated since the point (for an object that was there before).
        var keys: [String] = []
        /// The token of its latest change (the list is newest first).
        var latest: Int64 = 0
    }

    /// How the point was given (`10m`, `1234`), for the title.
    let label: String
    /// The last transaction read.
    private(set) var lastToken: HistoryToken
    /// Per object, what happened.
    private(set) var entries: [ObjectID: Entry] = [:]
    /// Transactions read so far.
    private(set) var transactions = 0
    /// Where the history is read.
    private let store: any PersistentHistoryStore

    /// The view of what changed after `token`, read at once.
    /// - Throws: the history store's error.
    init(after token: HistoryToken, label: String, store: any PersistentHistoryStore) throws {
        self.label = label
        self.lastToken = token
        self.store = store
        try update()
    }

    /// Reads the transactions after the last one read; returns whether any came.
    @discardableResult
    func update() throws -> Bool {
        var any = false
        while true {
            let found = try store.history(after: lastToken, limit: 1_000)
            for transaction in found.transactions {
                any = true
                transactions += 1
                lastToken = transaction.token
                for change in transaction.changes { apply(change, token: transaction.token.value) }
            }
            guard found.hasMore, !found.transactions.isEmpty else { return any }
        }
    }

    private func apply(_ change: HistoryChange, token: Int64) {
        var entry = entries[change.objectID] ?? Entry()
        entry.latest = token
        switch change.type {
        case .insert:
            entry.inserted = true
            entry.deleted = false
        case .update:
            if !entry.inserted {
                for key in change.changedKeys where !entry.keys.contains(key) { entry.keys.append(key) }
            }
        case .delete:
            if entry.inserted {
                // Inserted and deleted since the point: as if it never was.
                entries[change.objectID] = nil
                return
            }
            entry.deleted = true
        }
        entries[change.objectID] = entry
    }

    /// The counts of the title: inserted, updated, deleted.
    var counts: (inserted: Int, updated: Int, deleted: Int) {
        var counts = (inserted: 0, updated: 0, deleted: 0)
        for entry in entries.values {
            if entry.deleted { counts.deleted += 1 } else if entry.inserted { counts.inserted += 1 } else { counts.updated += 1 }
        }
        return counts
    }

    /// The name of `id`'s entity in `model` (`?` for an entity it does not have): how the
    /// `:since` list and the history's change list name a deleted object's entity.
    static func entityName(of id: ObjectID, in model: ManagedObjectModel) -> String {
        model.entities.indices.contains(Int(id.entityIndex)) ? model.entities[Int(id.entityIndex)].name : "?"
    }

    /// The columns of an export of the list.
    static let exportHeaders = ["change", "entity", "object", "name", "keys", "token"]

    /// The entries newest first (then by object ID).
    private var ordered: [(key: ObjectID, value: Entry)] {
        entries.sorted { $0.value.latest != $1.value.latest ? $0.value.latest > $1.value.latest : $0.key < $1.key }
    }

    /// The list as export records (``exportHeaders``), newest change first; `name` names an
    /// object that is still there.
    func records(model: ManagedObjectModel, name: (ObjectID) -> String) -> [[Value]] {
        ordered.map { id, entry in
            let entity = Self.entityName(of: id, in: model)
            let change = entry.deleted ? "deleted" : entry.inserted ? "inserted" : "updated"
            return [.string(change), .string(entity), .string("\(id)"), entry.deleted ? .null : .string(name(id)),
                    .string(entry.keys.joined(separator: ",")), .integer(entry.latest)]
        }
    }

    /// The view as a list page, newest change first; `name` names an object that is still there.
    func page(model: ManagedObjectModel, name: (ObjectID) -> String) -> ListPage {
        let (inserted, updated, deleted) = counts
        var page = ListPage(title: "Since \(label): \(inserted) inserted · \(updated) updated · \(deleted) deleted",
                            entries: [], footer: "live · ↑↓ move · Enter show the object (changed cells marked) · x export · Esc close")
        for (id, entry) in ordered {
            let entity = Self.entityName(of: id, in: model)
            let what = entry.deleted ? "deleted" : entry.inserted ? "inserted" : "updated: " + entry.keys.joined(separator: ", ")
            if !entry.deleted { page.targets[page.entries.count] = .object(id) }
            page.entries.append(.init(label: entry.deleted ? "\(entity) \(id)" : ControlEscaping.escaped(name(id)),
                                      value: ControlEscaping.escaped(what), isLink: !entry.deleted))
        }
        if entries.isEmpty { page.entries = [.init(label: "nothing changed since \(label)")] }
        page.since = self
        return page
    }
}
