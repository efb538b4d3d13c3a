/// The in-memory state of one to-many relationship of one object.
///
/// Contents load lazily from the parent store. Edits made before the contents are loaded are
/// kept as pending additions and removals, so adding one ticker to a sector with a million
/// tickers never loads the million (the import path depends on it).
struct ToManyState {
    /// The loaded contents with pending edits applied, or `nil` when not loaded.
    private(set) var members: [ObjectID]?
    private var memberSet: Set<ObjectID> = []
    /// Additions not yet applied to loaded contents, in order.
    private(set) var pendingAdds: [ObjectID] = []
    private var pendingAddSet: Set<ObjectID> = []
    /// Removals not yet applied to loaded contents.
    private(set) var pendingRemoves: Set<ObjectID> = []

    /// Whether contents are loaded.
    var isLoaded: Bool { members != nil }

    /// Installs committed contents from the store, applying pending edits over them.
    mutating func load(_ committed: [ObjectID]) {
        var list = committed.filter { !pendingRemoves.contains($0) }
        var set = Set(list)
        for id in pendingAdds where set.insert(id).inserted { list.append(id) }
        members = list
        memberSet = set
    }

    /// Forgets loaded contents (they may be stale) but keeps pending edits for the next load.
    mutating func dropLoadedContents() {
        members = nil
        memberSet = []
    }

    /// Forgets pending edits (after a save wrote them or a rollback discarded them).
    mutating func clearPending() {
        pendingAdds = []
        pendingAddSet = []
        pendingRemoves = []
    }

    /// Whether `id` is known to be a member (only meaningful when loaded).
    func contains(_ id: ObjectID) -> Bool { memberSet.contains(id) }

    /// Adds `id` (at the end, or at `index` when loaded and ordered). Returns whether it was added.
    @discardableResult
    mutating func add(_ id: ObjectID, at index: Int? = nil) -> Bool {
        pendingRemoves.remove(id)
        if pendingAddSet.insert(id).inserted { pendingAdds.append(id) }
        guard members != nil else { return true }
        guard memberSet.insert(id).inserted else { return false }
        if let index, index < members!.count { members!.insert(id, at: index) } else { members!.append(id) }
        return true
    }

    /// Removes `id`. Returns whether it was (or may have been) a member.
    @discardableResult
    mutating func remove(_ id: ObjectID) -> Bool {
        if pendingAddSet.remove(id) != nil { pendingAdds.removeAll { $0 == id } }
        pendingRemoves.insert(id)
        guard members != nil else { return true }
        guard memberSet.remove(id) != nil else { return false }
        members!.removeAll { $0 == id }
        return true
    }

    /// Replaces the loaded contents wholesale (pending edits become the difference).
    mutating func replace(with ids: [ObjectID], committed: [ObjectID]) {
        let new = Set(ids)
        let old = Set(committed)
        pendingRemoves = old.subtracting(new)
        pendingAdds = ids.filter { !old.contains($0) }
        pendingAddSet = Set(pendingAdds)
        members = ids
        memberSet = new
    }

    /// Rewrites temporary IDs to permanent ones.
    mutating func replaceIDs(_ mapping: [ObjectID: ObjectID]) {
        if let m = members {
            members = m.map { mapping[$0] ?? $0 }
            memberSet = Set(members!)
        }
        pendingAdds = pendingAdds.map { mapping[$0] ?? $0 }
        pendingAddSet = Set(pendingAdds)
        pendingRemoves = Set(pendingRemoves.map { mapping[$0] ?? $0 })
    }
}

extension ToManyState {
    /// Puts the (loaded) members in the order of `ids` (same members, new order).
    mutating func reorder(_ ids: [ObjectID]) {
        guard members != nil, Set(ids) == Set(members!) else { return }
        members = ids
    }
}
