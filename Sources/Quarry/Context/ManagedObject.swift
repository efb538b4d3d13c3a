import Foundation

/// An object of the graph: one row of one entity, owned by one ``ObjectContext``.
///
/// Objects are *uniqued* (a context holds at most one instance per ``ObjectID``) and start as
/// *faults*: their values are loaded from the store on first access. Read and write them with
/// string keys (`object["name"]`, ``setValue(_:forKey:)``), typed accessors, or, in a subclass,
/// with the ``Attribute``, ``ToOne`` and ``ToMany`` property wrappers:
///
/// ```swift
/// final class Ticker: ManagedObject {
///     @Attribute("symbol") var symbol: String
///     @Attribute("price") var price: Double
///     @ToOne("sector") var sector: Sector?
/// }
/// ```
///
/// Setting a relationship maintains its inverse on both sides.
///
/// Concurrency: an object is confined to its context's queue, like the context itself; it is
/// marked `@unchecked Sendable` so it can be captured by `perform` blocks, and
/// `QUARRY_CONCURRENCY_DEBUG=1` traps any access from another queue.
open class ManagedObject: @unchecked Sendable, Hashable, CustomStringConvertible {
    // State confined to `context.queue` (checked in debug mode by `context.checkQueue()`).

    /// The object's identity; temporary until the object is first saved to a store.
    public internal(set) var objectID: ObjectID
    /// The object's entity.
    public let entity: EntityDescription
    /// The context that owns the object (`nil` once it is deleted and saved, or the context reset).
    public internal(set) weak var managedObjectContext: ObjectContext?

    /// Current attribute values (valid when not a fault).
    var values: [Value] = []
    /// Current to-one destinations (valid when not a fault).
    var toOne: [ObjectID?] = []
    /// To-many relationship state by relationship index (loaded lazily).
    var toMany: [Int: ToManyState] = [:]
    /// Fetched properties' results, by name, kept until the object is refreshed (``fetchedProperty(_:)``).
    var fetchedPropertyResults: [String: [ObjectID]] = [:]
    /// The last state loaded from the parent store (`nil` for inserted objects and faults).
    var committed: Snapshot?
    /// Properties changed since the last save or refresh.
    var changedMask = PropertyMask()
    /// Whether the values have not been loaded yet.
    var faulted = true
    var inserted = false
    /// Whether an objects-did-change has announced this inserted object (later edits are then
    /// announced as updates).
    var insertAnnounced = false
    var deleted = false
    /// The batch of a fetch this fault belongs to: firing it loads its whole batch.
    var faultBatch: (group: FaultBatch, index: Int)?
    /// Counts the changes made to the object (every set, also of inserted objects): a save
    /// calls ``willSave()`` again on an object changed since its last call.
    var changeCount: UInt32 = 0
    /// ``changeCount`` when ``willSave()`` was last called, in the save ``willSaveEpoch`` names.
    var willSaveSeen: UInt32 = 0
    /// The context's save during which ``willSave()`` was last called.
    var willSaveEpoch: UInt32 = 0
    /// Whether ``awakeFromFetch()`` is running: its changes are not recorded (as in Core Data,
    /// where change processing is off around it).
    var awakingFromFetch = false
    /// The undo group (``ContextUndoManager``'s serial) that inserted the object: its property
    /// changes in that group need no steps.
    var undoAppearedIn: UInt32 = 0
    /// The undo manager whose group inserted the object, while it holds that group: with
    /// ``undoAppearedIn`` it tells a setter, without loading the weak context reference, that
    /// the change needs no step. Unowned and unretained: the manager clears it before it lets
    /// go of the group (``ContextUndoManager/releaseOwnership(of:)``).
    unowned(unsafe) var undoOwner: ContextUndoManager?

    /// The name of the entity a subclass represents; defaults to the class's name.
    open class var entityName: String { String(describing: self) }

    /// Creates an object of `entity` with identity `id` in `context`. Contexts call this;
    /// use ``ObjectContext/insert(_:)`` or ``ObjectContext/insertObject(entityName:)`` instead.
    public required init(entity: EntityDescription, id: ObjectID, context: ObjectContext?) {
        self.entity = entity
        self.objectID = id
        self.managedObjectContext = context
    }

    // MARK: State

    /// Whether the object's values have not been loaded yet.
    public var isFault: Bool { faulted }
    /// Whether the object was inserted since the last save.
    public var isInserted: Bool { inserted }
    /// Whether the object was deleted since the last save.
    public var isDeleted: Bool { deleted }
    /// Whether the object has unsaved property changes (and is neither inserted nor deleted).
    public var isUpdated: Bool { !inserted && !deleted && !changedMask.isEmpty }
    /// Whether the object is inserted, updated or deleted.
    public var hasChanges: Bool { inserted || deleted || !changedMask.isEmpty }

    /// The current values of the changed attributes (every non-null attribute of an inserted
    /// object); to-ones are in ``changedToOne()``.
    public func changedValues() -> [String: Value] {
        checkAccess()
        var result: [String: Value] = [:]
        if inserted {
            for (i, a) in entity.attributes.enumerated() where !values[i].isNull { result[a.name] = values[i] }
            return result
        }
        for i in changedMask.indices where i < entity.attributes.count { result[entity.attributes[i].name] = values[i] }
        return result
    }

    /// The changed to-one relationships with their new destinations.
    public func changedToOne() -> [String: ObjectID?] {
        checkAccess()
        var result: [String: ObjectID?] = [:]
        let a = entity.attributes.count
        for i in changedMask.indices where i >= a && !entity.relationships[i - a].isToMany {
            result[entity.relationships[i - a].name] = .some(toOne[i - a])
        }
        return result
    }

    /// The names of the changed properties (attributes and relationships).
    public var changedKeys: Set<String> { Set(changedMask.keys(in: entity)) }

    /// The last saved (or fetched) values of `keys` (all attributes when `nil`); empty for
    /// inserted objects.
    public func committedValues(forKeys keys: [String]? = nil) -> [String: Value] {
        checkAccess()
        fireFault()
        guard let committed else { return [:] }
        var result: [String: Value] = [:]
        for (i, a) in entity.attributes.enumerated() where keys?.contains(a.name) ?? true {
            result[a.name] = committed.values[i]
        }
        return result
    }

    // MARK: Faulting

    /// Loads the object's values if it is a fault. Faults of objects that no longer exist load
    /// as empty values and report ``isDeleted``.
    public func fireFault() {
        guard faulted, let context = managedObjectContext else { return }
        context.fulfillFault(self)
    }

    /// Installs `snapshot` as the object's committed and current state (keeping local changes
    /// when `keepingChanges`).
    func install(_ snapshot: Snapshot, keepingChanges: Bool) {
        let wasLoaded = !faulted
        committed = snapshot
        if keepingChanges && wasLoaded && !changedMask.isEmpty {
            let a = entity.attributes.count
            var newValues = snapshot.values
            var newToOne = snapshot.toOne
            for i in changedMask.indices {
                if i < a { newValues[i] = values[i] } else if !entity.relationships[i - a].isToMany { newToOne[i - a] = toOne[i - a] }
            }
            // Transient attributes live in memory only.
            for i in entity.attributes.indices where entity.attributes[i].isTransient { newValues[i] = values[i] }
            values = newValues
            toOne = newToOne
        } else {
            let transients = wasLoaded ? values : []
            values = snapshot.values
            toOne = snapshot.toOne
            if wasLoaded {
                for i in entity.attributes.indices where entity.attributes[i].isTransient { values[i] = transients[i] }
            }
            if !keepingChanges { changedMask = PropertyMask() }
        }
        // Cached to-many contents may be stale; pending local edits survive.
        for key in toMany.keys { toMany[key]?.dropLoadedContents() }
        if !fetchedPropertyResults.isEmpty { fetchedPropertyResults = [:] }
        faulted = false
        if !wasLoaded {
            awakingFromFetch = true
            awakeFromFetch()
            awakingFromFetch = false
        }
    }

    /// Turns the object back into a fault, discarding values and changes.
    func turnIntoFault() {
        let wasLoaded = !faulted
        if wasLoaded { willTurnIntoFault() }
        defer { if wasLoaded { didTurnIntoFault() } }
        values = []
        toOne = []
        toMany = [:]
        fetchedPropertyResults = [:]
        committed = nil
        changedMask = PropertyMask()
        faulted = true
    }

    /// The state to write: current values and to-ones at the committed version.
    var currentSnapshot: Snapshot {
        Snapshot(values: values, toOne: toOne, version: committed?.version ?? 0)
    }

    func checkAccess() {
        if ObjectContext.concurrencyDebug { managedObjectContext?.checkQueue() }
    }

    // MARK: Lifecycle (Core Data's hooks; ObjectContext+Lifecycle.swift and docs/lifecycle.md give the order)

    /// Called once, when the object is inserted into a context, before the caller sees it:
    /// set initial values here (they are the inserted object's values, not changes). Not
    /// called again when a child context's save brings the object into its parent.
    open func awakeFromInsert() {}

    /// Called each time the object's values are loaded from the store (a fault fulfilled, by
    /// a fetch, a batch, a prefetch or a merge that installs a stored state in a fault).
    /// Changes made here are not recorded: use it for transient and cached values.
    open func awakeFromFetch() {}

    /// Called during a save, for each inserted, updated and deleted object, before validation
    /// and before anything is written. Changes made here are saved by the same save; an object
    /// changed (here or by another object's `willSave`) gets `willSave` again, and a save whose
    /// objects keep changing for ``ObjectContext/willSaveRoundLimit`` rounds fails with
    /// ``QuarryError/willSaveKeptChanging(objects:)``, writing nothing.
    open func willSave() {}

    /// Called after a save wrote the object (to the store, or to the parent for a child
    /// context), for each inserted, updated and deleted object. A deleted object is still in
    /// its context, with ``isDeleted`` true, and leaves it right after.
    open func didSave() {}

    /// Called when the object is deleted, before its relationships' delete rules apply (so
    /// its related objects are still reachable).
    open func prepareForDeletion() {}

    /// Called before a loaded object becomes a fault (refresh without merging, rollback,
    /// reset, a merge that discards its values); its values are still readable.
    open func willTurnIntoFault() {}

    /// Called after the object became a fault.
    open func didTurnIntoFault() {}

    /// Checks an inserted object before a save: by default every attribute through
    /// ``validateValue(_:forKey:)`` and the relationships' model rules (see
    /// ``validateProperties()``). Override to add rules that involve several properties; throw
    /// ``ValidationFailure`` or ``ObjectValidationError`` (any other error is reported with
    /// its description). Call `super` to keep the model's rules.
    open func validateForInsert() throws { try validateProperties() }

    /// Checks an updated object before a save; by default like ``validateForInsert()``.
    open func validateForUpdate() throws { try validateProperties() }

    /// Checks a deleted object before a save: by default its *deny* rules (relationships that
    /// still hold objects refuse the delete).
    open func validateForDelete() throws {
        let failures = denyFailures()
        if !failures.isEmpty { throw ObjectValidationError(failures: failures) }
    }

    /// Checks `value` for the attribute `key`: by default the model's rules (required, range,
    /// length, pattern). Override per key, calling `super` for the rest:
    ///
    /// ```swift
    /// override func validateValue(_ value: Value, forKey key: String) throws {
    ///     if key == "symbol", case .string(let s) = value, s != s.uppercased() {
    ///         throw ValidationFailure(object: self, key: key, reason: "must be upper case")
    ///     }
    ///     try super.validateValue(value, forKey: key)
    /// }
    /// ```
    open func validateValue(_ value: Value, forKey key: String) throws {
        // An entity without attribute rules (most, and every importer's) needs no lookup.
        guard !entity.validatedAttributeIndices.isEmpty, let i = entity.attributeIndex(key) else { return }
        let reasons = entity.attributes[i].ruleViolations(of: value)
        guard !reasons.isEmpty else { return }
        throw ObjectValidationError(failures: reasons.map { ValidationFailure(object: self, key: key, reason: $0) })
    }

    // MARK: Hashable, description

    /// The same instance: an object is equal only to itself, as in Core Data.
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    open var description: String {
        guard !faulted else { return "<\(entity.name) \(objectID) fault>" }
        let fields = entity.attributes.indices.prefix(6).map { "\(entity.attributes[$0].name)=\(values[$0])" }
        return "<\(entity.name) \(objectID) \(fields.joined(separator: " "))>"
    }
}
