/// Where a context calls its objects' lifecycle hooks (declared on ``ManagedObject``), in
/// Core Data's order (pinned in `docs/lifecycle.md`, checked by `LifecycleHookTests`):
///
/// - insert: ``ManagedObject/awakeFromInsert()`` before `insert` returns;
/// - a fault fulfilled: ``ManagedObject/awakeFromFetch()``, its changes unrecorded;
/// - delete: ``ManagedObject/prepareForDeletion()``, then the delete rules;
/// - save: ``ManagedObject/willSave()`` on every object to write (again on those changed
///   since, up to ``ObjectContext/willSaveRoundLimit`` rounds), then validation
///   (`validateFor…`), the write, and ``ManagedObject/didSave()`` on every object written,
///   before the did-save notification;
/// - a loaded object becoming a fault: ``ManagedObject/willTurnIntoFault()`` and
///   ``ManagedObject/didTurnIntoFault()`` around it.
extension ObjectContext {
    /// How many rounds of ``ManagedObject/willSave()`` a save runs while objects keep
    /// changing before it stops with ``QuarryError/willSaveKeptChanging(objects:)`` (Core Data
    /// loops until the program crashes).
    public static let willSaveRoundLimit = 100

    /// The objects a save writes: inserted (in insertion order), updated and deleted (by ID).
    func objectsToSave() -> [ManagedObject] {
        insertedList.filter(\.inserted)
            + updatedObjects.values.filter { !$0.changedMask.isEmpty }.sorted { $0.objectID < $1.objectID }
            + deletedObjects.values.sorted { $0.objectID < $1.objectID }
    }

    /// Calls ``ManagedObject/willSave()`` on every object the save writes, then again on every
    /// one changed since its call (objects a `willSave` inserted, changed or deleted included),
    /// until a round changes nothing; then announces what the hooks changed.
    /// - Throws: ``QuarryError/willSaveKeptChanging(objects:)`` after ``willSaveRoundLimit`` rounds.
    func runWillSave() throws {
        willSaveEpoch &+= 1
        let epoch = willSaveEpoch
        func due(_ object: ManagedObject) -> Bool { object.willSaveEpoch != epoch || object.willSaveSeen != object.changeCount }
        for round in 0..<Self.willSaveRoundLimit {
            // After the first round, one pass without listing or sorting decides whether any
            // object changed (an importer's save of 100,000 objects pays one look each).
            if round > 0 && !insertedList.contains(where: { $0.inserted && due($0) })
                && !updatedObjects.values.contains(where: { !$0.changedMask.isEmpty && due($0) })
                && !deletedObjects.values.contains(where: due) {
                processPendingChanges()
                return
            }
            for object in objectsToSave() where due(object) {
                object.willSaveEpoch = epoch
                object.willSaveSeen = object.changeCount
                object.willSave()
            }
        }
        let changing = objectsToSave().filter(due)
        guard changing.isEmpty else { throw QuarryError.willSaveKeptChanging(objects: changing.map(\.description)) }
        processPendingChanges()
    }
}
