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
    private var pinned: [ObjectID: ManagedObject] = [:]

    /// The live object for `id`, if any.
    func object(for id: ObjectID) -> ManagedObject? {
        if !pinned.isEmpty, let object = pinned[id] { return object }
        return table[id]?.object
    }

    /// Registers `object` under its ID, held strongly until ``unpinAll()``.
    mutating func pin(_ object: ManagedObject) {
        pinned[object.objectID] = object
    }

    /// Lets go of the pinned objects: those referenced elsewhere are registered (weakly), the
    /// others are released.
    mutating func unpinAll() {
        guard !pinned.isEmpty else { return }
        for id in Array(pinned.keys) {
            guard var object = pinned.removeValue(forKey: id) else { continue }
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
        if !pinned.isEmpty { pinned[id] = nil }
    }

    /// Whether no object was ever registered since the last sweep (dead entries count as
    /// registered until swept).
    var isEmpty: Bool { table.isEmpty && pinned.isEmpty }

    /// Every live object.
    var liveObjects: [ManagedObject] {
        table.compactMap { id, box in pinned[id] == nil ? box.object : nil } + pinned.values
    }
    /// How many live objects.
    var liveCount: Int { table.reduce(0) { $0 + ($1.value.object == nil || pinned[$1.key] != nil ? 0 : 1) } + pinned.count }

    /// Forgets everything.
    mutating func removeAll() { table = [:]; pinned = [:]; sweepAt = 1024 }

    private mutating func sweep() {
        table = table.filter { $0.value.object != nil }
        sweepAt = max(1024, table.count * 2)
    }
}
