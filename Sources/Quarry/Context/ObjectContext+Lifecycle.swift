/// Where a context calls its objects' lifecycle hooks (declared on ``ManagedObject``), in
/// Core Data's order (pinned in the semantics reference, "Object lifecycle"):
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
        var counted = changeCounter
        for round in 0..<Self.willSaveRoundLimit {
            // After the first round, one that changed nothing needs no listing of objects.
            if round > 0 && changeCounter == counted { break }
            counted = changeCounter
            var called = false
            for object in objectsToSave() where object.willSaveEpoch != epoch || object.willSaveSeen != object.changeCount {
                object.willSaveEpoch = epoch
                object.willSaveSeen = object.changeCount
                object.willSave()
                called = true
            }
            if !called { break }
            if round == Self.willSaveRoundLimit - 1 && changeCounter != counted {
                let changing = objectsToSave().filter { $0.willSaveEpoch != epoch || $0.willSaveSeen != $0.changeCount }
                throw QuarryError.willSaveKeptChanging(objects: changing.map(\.description))
            }
        }
        processPendingChanges()
    }
}
