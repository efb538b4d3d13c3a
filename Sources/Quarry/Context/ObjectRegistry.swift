/// The context's uniquing table: at most one live object per ``ObjectID``.
///
/// Objects are held weakly, like Core Data's registered objects: an unchanged object nobody
/// references is released (changed objects are kept alive by the context's change sets).
/// Dead entries are swept when the table has doubled since the last sweep.
///
/// Objects an undo manager keeps alive anyway are *pinned* instead (held strongly, no weak
/// reference): a weak reference moves an object's reference count into a side table, which
/// makes every later retain and release of it slower, and an import recorded for undo would
/// pay that on every object it saved.
struct ObjectRegistry {
    private final class WeakBox {
        weak var object: ManagedObject?
        init(_ object: ManagedObject) { self.object = object }
    }

    private var table: [ObjectID: WeakBox] = [:]
    private var sweepAt = 1024
    /// Pinned objects in pinning order, until a look-up needs them by ID: then they move to
    /// ``pinnedIndex`` for good (an import recorded for undo pins every object and looks none up).
    private var pinnedList: [ManagedObject] = []
    private var pinnedIndex: [ObjectID: ManagedObject]?

    private var hasPinned: Bool { !pinnedList.isEmpty || !(pinnedIndex?.isEmpty ?? true) }

    /// The pinned objects by ID (the list moves into the index on first use).
    private mutating func pinnedByID() -> [ObjectID: ManagedObject] {
        if pinnedIndex == nil || !pinnedList.isEmpty {
            var index = pinnedIndex ?? [:]
            index.reserveCapacity(index.count + pinnedList.count)
            for object in pinnedList { index[object.objectID] = object }
            pinnedList = []
            pinnedIndex = index
        }
        return pinnedIndex!
    }

    /// The live object for `id`, if any.
    mutating func object(for id: ObjectID) -> ManagedObject? {
        if let object = table[id]?.object { return object }
        return hasPinned ? pinnedByID()[id] : nil
    }

    /// Registers `object` under its ID, held strongly until ``unpinAll()``.
    mutating func pin(_ object: ManagedObject) {
        if pinnedIndex != nil { pinnedIndex![object.objectID] = object } else { pinnedList.append(object) }
    }

    /// Lets go of the pinned objects: those referenced elsewhere are registered (weakly), the
    /// others are released.
    mutating func unpinAll() {
        guard hasPinned else { return }
        var list = pinnedList + (pinnedIndex.map { Array($0.values) } ?? [])
        pinnedList = []
        pinnedIndex = nil
        while var object = list.popLast() {
            if !isKnownUniquelyReferenced(&object) { register(object) }
        }
    }

    /// Registers `object` under its ID.
    mutating func register(_ object: ManagedObject) {
        table[object.objectID] = WeakBox(object)
        if table.count >= sweepAt { sweep() }
    }

    /// Removes the entry for `id`.
    mutating func remove(_ id: ObjectID) {
        table[id] = nil
        if hasPinned {
            _ = pinnedByID()
            pinnedIndex![id] = nil
        }
    }

    /// Whether no object was ever registered since the last sweep (dead entries count as
    /// registered until swept).
    var isEmpty: Bool { table.isEmpty && !hasPinned }

    /// Every live object.
    var liveObjects: [ManagedObject] {
        mutating get {
            let pinned = hasPinned ? pinnedByID() : [:]
            return table.compactMap { id, box in pinned[id] == nil ? box.object : nil } + pinned.values
        }
    }
    /// How many live objects.
    var liveCount: Int {
        mutating get {
            let pinned = hasPinned ? pinnedByID() : [:]
            return table.reduce(0) { $0 + ($1.value.object == nil || pinned[$1.key] != nil ? 0 : 1) } + pinned.count
        }
    }

    /// Forgets everything.
    mutating func removeAll() { table = [:]; pinnedList = []; pinnedIndex = nil; sweepAt = 1024 }

    private mutating func sweep() {
        table = table.filter { $0.value.object != nil }
        sweepAt = max(1024, table.count * 2)
    }
}
