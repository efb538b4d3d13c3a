/// One key of one uniqueness constraint held by more than one object once a save is applied:
/// by several of the save's objects, or by one of them and a row already stored.
struct UniquenessClash {
    /// The entity whose rows the constraint covers.
    let scope: EntityDescription
    /// The constrained attributes.
    let constraint: [String]
    /// The key.
    let key: [Value]
    /// The stored row holding the key (not one of ``objects``), if any.
    var storedID: ObjectID?
    /// The save's objects holding the key: changed stored objects first (by ID), then inserted
    /// ones in insertion order.
    var objects: [ManagedObject]

    /// Whether the key is held more than once.
    var isClash: Bool { objects.count + (storedID == nil ? 0 : 1) > 1 }
}
