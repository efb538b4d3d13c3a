extension InMemoryState {
    /// Stores the new to-many contents `lists` (relationship index → members) of each owner.
    ///
    /// The reading side of a many-to-many pair is applied as a membership diff first, then the
    /// storing side's full lists, so when a save sends both sides the storing side's order wins.
    mutating func applyLists(_ lists: [(owner: ObjectID, lists: [Int: [ObjectID]])], layout: InMemoryLayout,
                             model: ManagedObjectModel) {
        var storing: [(key: RelationshipKey, owner: ObjectID, members: [ObjectID])] = []
        for (owner, ownerLists) in lists {
            let storages = layout.toMany[Int(owner.entityIndex)]
            for r in ownerLists.keys.sorted() {
                guard r < storages.count, let storage = storages[r], let list = ownerLists[r] else { continue }
                let members = Self.deduplicated(list)
                switch storage {
                case .foreignKey(_, _, let order):
                    if let order { Self.setList(members, owner: owner, in: &orders, key: order) }
                case .join(let key):
                    storing.append((key, owner, members))
                case .reversedJoin(let key, let order):
                    let current = self.members(of: owner, storage: storage, model: model)
                    let wanted = Set(members)
                    for other in current where !wanted.contains(other) {
                        Self.setList(joins[key]?[other]?.filter { $0 != owner } ?? [], owner: other, in: &joins, key: key)
                    }
                    let had = Set(current)
                    for other in members where !had.contains(other) {
                        Self.setList((joins[key]?[other] ?? []) + [owner], owner: other, in: &joins, key: key)
                    }
                    if let order { Self.setList(members, owner: owner, in: &orders, key: order) }
                }
            }
        }
        for (key, owner, members) in storing { Self.setList(members, owner: owner, in: &joins, key: key) }
    }

    /// Removes every join and order entry of the objects in `deleted`, as owner or member.
    mutating func purge(_ deleted: Set<ObjectID>) {
        guard !deleted.isEmpty else { return }
        Self.purge(deleted, from: &joins)
        Self.purge(deleted, from: &orders)
    }

    private static func purge(_ deleted: Set<ObjectID>, from lists: inout [RelationshipKey: [ObjectID: [ObjectID]]]) {
        for key in Array(lists.keys) {
            var table = lists.removeValue(forKey: key)!
            for owner in Array(table.keys) {
                if deleted.contains(owner) {
                    table[owner] = nil
                } else if table[owner]!.contains(where: deleted.contains) {
                    let kept = table[owner]!.filter { !deleted.contains($0) }
                    table[owner] = kept.isEmpty ? nil : kept
                }
            }
            if !table.isEmpty { lists[key] = table }
        }
    }

    private static func setList(_ members: [ObjectID], owner: ObjectID,
                         in lists: inout [RelationshipKey: [ObjectID: [ObjectID]]], key: RelationshipKey) {
        lists[key, default: [:]][owner] = members.isEmpty ? nil : members
        if lists[key]?.isEmpty == true { lists[key] = nil }
    }

    private static func deduplicated(_ ids: [ObjectID]) -> [ObjectID] {
        var seen = Set<ObjectID>()
        return ids.filter { seen.insert($0).inserted }
    }
}
