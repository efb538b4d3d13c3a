/// The context's uniquing table: at most one live object per ``ObjectID``.
///
/// Objects are held weakly, like Core Data's registered objects: an unchanged object nobody
/// references is released (changed objects are kept alive by the context's change sets).
/// Dead entries are swept when the table has doubled since the last sweep.
struct ObjectRegistry {
    private final class WeakBox {
        weak var object: ManagedObject?
        init(_ object: ManagedObject) { self.object = object }
    }

    private var table: [ObjectID: WeakBox] = [:]
    private var sweepAt = 1024

    /// The live object for `id`, if any.
    func object(for id: ObjectID) -> ManagedObject? { table[id]?.object }

    /// Registers `object` under its ID.
    mutating func register(_ object: ManagedObject) {
        table[object.objectID] = WeakBox(object)
        if table.count >= sweepAt { sweep() }
    }

    /// Removes the entry for `id`.
    mutating func remove(_ id: ObjectID) { table[id] = nil }

    /// Whether no object was ever registered since the last sweep (dead entries count as
    /// registered until swept).
    var isEmpty: Bool { table.isEmpty }

    /// Every live object.
    var liveObjects: [ManagedObject] { table.values.compactMap(\.object) }
    /// How many live objects.
    var liveCount: Int { table.values.reduce(0) { $0 + ($1.object == nil ? 0 : 1) } }

    /// Forgets everything.
    mutating func removeAll() { table = [:]; sweepAt = 1024 }

    private mutating func sweep() {
        table = table.filter { $0.value.object != nil }
        sweepAt = max(1024, table.count * 2)
    }
}
