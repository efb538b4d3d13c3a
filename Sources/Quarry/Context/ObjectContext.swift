import Dispatch
import Foundation
import Synchronization

/// A scratch pad of managed objects: it loads, uniques, tracks and saves them.
///
/// A context is either a *root* context over a ``StoreCoordinator`` (its saves go to the
/// store) or a *child* of another context (its saves go to the parent only; saving the parent
/// writes to the store).
///
/// Concurrency: a context and its objects belong to one serial queue: the main queue for
/// ``ConcurrencyType/mainQueue`` (the UI's context), a private queue for
/// ``ConcurrencyType/privateQueue``. Touch them only inside ``perform(_:)->()``,
/// ``performAndWait(_:)`` or the `async` ``perform(_:)->_``, or on the main queue
/// for a main-queue context. With `QUARRY_CONCURRENCY_DEBUG=1` in the environment, any access
/// from another queue traps (like Core Data's `-com.apple.CoreData.ConcurrencyDebug 1`).
///
/// ```swift
/// let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
/// try context.performAndWait {
///     let sector = try context.insertObject(entityName: "Sector")
///     sector["name"] = .string("Tech")
///     try context.save()
/// }
/// ```
public final class ObjectContext: @unchecked Sendable, CustomStringConvertible {
    // Mutable state below is confined to `queue` (checked by `checkQueue()` in debug mode).

    /// Which queue a context runs on.
    public enum ConcurrencyType: Sendable {
        /// The main dispatch queue (the main actor's queue): for the UI.
        case mainQueue
        /// A private serial queue: for background work.
        case privateQueue
    }

    /// The context's concurrency type.
    public let concurrencyType: ConcurrencyType
    /// The serial queue that owns the context and its objects.
    public let queue: DispatchQueue
    /// The coordinator the context's saves eventually reach (the root's, for child contexts).
    public let coordinator: StoreCoordinator
    /// The parent context, for child contexts.
    public let parent: ObjectContext?
    /// The model.
    public var model: ManagedObjectModel { coordinator.model }
    /// A name for debugging and notifications.
    public var name: String?
    /// How save conflicts are resolved (default ``MergePolicy/error``): optimistic-locking
    /// conflicts with other writers, and uniqueness-constraint clashes unless
    /// ``uniquenessMergePolicy`` says otherwise.
    public var mergePolicy: MergePolicy = .error
    /// How uniqueness-constraint clashes are resolved, when they should be resolved otherwise
    /// than by ``mergePolicy`` (`nil`, the default: by ``mergePolicy``, as in Core Data).
    ///
    /// What a Core Data merge-policy subclass gets by overriding `resolve(constraintConflicts:)`
    /// alone: for example an importer that wins optimistic-locking conflicts
    /// (``MergePolicy/mergeByPropertyObjectTrump``) but wants a save that would store a key
    /// twice refused (``MergePolicy/error``) rather than merged.
    public var uniquenessMergePolicy: MergePolicy?
    /// When set, ``save()`` refuses with ``QuarryError/refused(_:)`` and this reason (used by
    /// the stack for temporary contexts).
    public var saveRefusal: String?
    /// When `true`, ``save()`` writes nothing and returns ``SaveOutcome/ignoredReadOnly``.
    public var isReadOnly = false
    /// For a child context: when `true`, a successful ``save()`` also saves the parent (and so
    /// on up to the store), as a creator context does.
    public var savesThroughToStore = false

    let source: ObjectSource
    var registry = ObjectRegistry()
    /// Inserted objects in insertion order (ones deleted again have `inserted == false`);
    /// they are not in `registry` until saved.
    var insertedList: [ManagedObject] = []
    /// How many objects of `insertedList` are still inserted.
    var insertedCount = 0
    /// Inserted objects by temporary ID, built on the first lookup (imports never need it).
    var insertedIndex: [ObjectID: ManagedObject]?
    var updatedObjects: [ObjectID: ManagedObject] = [:]
    var deletedObjects: [ObjectID: ManagedObject] = [:]
    var pending = PendingChanges()
    var processScheduled = false
    /// Temporary → permanent IDs of objects this context saved (so children can still find
    /// them); kept only once the context has had a child.
    var permanentIDs: [ObjectID: ObjectID] = [:]
    /// Set when a child context is created on this one.
    let hasChildren = Atomic<Bool>(false)
    let observers = ContextObservers()
    /// The class most recently passed to `insert(_:)` and its entity.
    var lastInsertedClass: (ObjectIdentifier, EntityDescription)?
    /// Snapshots loaded ahead of use by relationship prefetching, consumed when the fault fires.
    var prefetchedSnapshots: [ObjectID: Snapshot] = [:]
    /// The newest read this context could not make (see ``ContextReadError``); on the context's queue.
    public internal(set) var lastReadError: ContextReadError?
    /// Deleted objects whose to-many destinations could not be read to apply delete rules:
    /// the next save refuses them (see ``ContextReadError``).
    var unappliedDeleteRules: [ObjectID: ContextReadError] = [:]
    /// Counts this context's saves, so each object's ``ManagedObject/willSave()`` is called
    /// once per save unless it changed since (``runWillSave()``).
    var willSaveEpoch: UInt32 = 0
    /// The undo manager (see ``undoManager``); `nil` unless one was attached.
    var undoStorage: ContextUndoManager?
    /// The derived increments the save being made sends its store (see
    /// ``recomputeDerivedAttributes(exact:)``); empty between saves.
    var pendingStoreIncrements: [DerivedIncrement] = []
    /// Whether a fault whose row is gone becomes a deleted object with default values (Core
    /// Data's default), rather than reading as empty with ``lastReadError`` set.
    public var shouldDeleteInaccessibleFaults = true
    /// Children following this context's changes (``automaticallyMergesChangesFromParent``),
    /// called with each save and merge of this context, on its queue.
    let childRelays = Mutex<[ObjectIdentifier: @Sendable (SaveChanges) -> Void]>([:])
    /// Whether this (child) context follows its parent (``automaticallyMergesChangesFromParent``).
    var followsParent = false
    /// The query generation the context is pinned to (``setQueryGeneration(from:)``), if any.
    var generation: QueryGeneration?

    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
    static let concurrencyDebug = ProcessInfo.processInfo.environment["QUARRY_CONCURRENCY_DEBUG"] == "1"

    /// Creates a root context over `coordinator`.
    public init(concurrencyType: ConcurrencyType, coordinator: StoreCoordinator, name: String? = nil) {
        self.concurrencyType = concurrencyType
        self.coordinator = coordinator
        self.parent = nil
        self.source = coordinator
        self.name = name
        self.queue = Self.makeQueue(concurrencyType, name: name)
        if concurrencyType == .privateQueue { queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self)) }
    }

    /// Creates a child context of `parent`: its saves go to `parent` only.
    public init(concurrencyType: ConcurrencyType, parent: ObjectContext, name: String? = nil) {
        self.concurrencyType = concurrencyType
        self.coordinator = parent.coordinator
        self.parent = parent
        self.source = parent
        self.name = name
        self.queue = Self.makeQueue(concurrencyType, name: name)
        if concurrencyType == .privateQueue { queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self)) }
        parent.hasChildren.store(true, ordering: .relaxed)
    }

    deinit {
        if undoStorage != nil { ContextUndoManager.attachedCount.subtract(1, ordering: .relaxed) }
        if followsParent, let parent { _ = parent.childRelays.withLock { $0.removeValue(forKey: ObjectIdentifier(self)) } }
    }

    private static func makeQueue(_ type: ConcurrencyType, name: String?) -> DispatchQueue {
        type == .mainQueue ? .main : DispatchQueue(label: "quarry.context.\(name ?? "private")")
    }

    public var description: String { "ObjectContext(\(name ?? "unnamed"), \(concurrencyType))" }

    // MARK: Running work on the context's queue

    /// Whether the caller is running on the context's queue.
    public var isOnQueue: Bool {
        switch concurrencyType {
        case .mainQueue:
            // The main queue is not always drained by the main thread (test runners, async
            // mains), so the queue's own marker decides; the main thread outside any queue
            // block (top-level code) counts too.
            return DispatchQueue.getSpecific(key: Self.mainQueueKey) != nil || Thread.isMainThread
        case .privateQueue:
            return DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) || ContextThreadMarks.isActive(self)
        }
    }

    /// Runs `block` asynchronously on the context's queue.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async {
            ContextThreadMarks.with(self, block)
            self.undoStorage?.endEvent()
        }
    }

    /// Runs `block` on the context's queue and waits for it; runs it at once when already
    /// there, including when this thread holds the queue further down its stack (a parent
    /// waiting for its child's `performAndWait` that asks the parent back).
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if isOnQueue || ContextThreadMarks.isActive(self) { return try ContextThreadMarks.with(self, block) }
        return try queue.sync {
            // The outermost block of an event: its undo group closes with it.
            defer { undoStorage?.endEvent() }
            return try ContextThreadMarks.with(self, block)
        }
    }

    /// Runs `block` on the context's queue and returns its result to the awaiting task.
    public func perform<T: Sendable>(_ block: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                ContextThreadMarks.with(self) {
                    let result = Result { try block() }
                    self.undoStorage?.endEvent()
                    continuation.resume(with: result)
                }
            }
        }
    }

    /// Traps when concurrency debugging is on and the caller is not on the context's queue.
    func checkQueue() {
        if Self.concurrencyDebug && !isOnQueue {
            preconditionFailure("Quarry concurrency violation: \(self) used off its queue (QUARRY_CONCURRENCY_DEBUG=1)")
        }
    }

    // MARK: Change state

    /// Whether any registered object has unsaved changes.
    public var hasChanges: Bool {
        checkQueue()
        return insertedCount > 0 || !updatedObjects.isEmpty || !deletedObjects.isEmpty
    }

    /// Objects inserted since the last save, in insertion order.
    public var inserted: [ManagedObject] { checkQueue(); return insertedList.filter(\.inserted) }
    /// Objects with unsaved changes (not inserted, not deleted).
    public var updated: [ManagedObject] { checkQueue(); return Array(updatedObjects.values) }
    /// Objects deleted since the last save.
    public var deleted: [ManagedObject] { checkQueue(); return Array(deletedObjects.values) }
    /// Every object the context holds (registered and still referenced).
    public var registeredObjects: [ManagedObject] { checkQueue(); return registry.liveObjects + insertedList.filter(\.inserted) }
    /// How many objects are registered (alive) in the context.
    public var registeredObjectCount: Int { checkQueue(); return registry.liveCount + insertedCount }

    /// The live object for `id`: an inserted one (by temporary ID) or a registered one.
    func lookup(_ id: ObjectID) -> ManagedObject? {
        guard id.isTemporary else { return registry.object(for: id) }
        if insertedIndex == nil {
            var index: [ObjectID: ManagedObject] = [:]
            index.reserveCapacity(insertedCount)
            for o in insertedList where o.inserted { index[o.objectID] = o }
            insertedIndex = index
        }
        return insertedIndex![id]
    }

    /// Adds a newly inserted object to the change tracking.
    func trackInserted(_ object: ManagedObject) {
        insertedList.append(object)
        insertedCount += 1
        insertedIndex?[object.objectID] = object
    }

    /// Takes an inserted object out of the change tracking (deleted before any save).
    func untrackInserted(_ object: ManagedObject) {
        guard object.inserted else { return }
        object.inserted = false
        insertedCount -= 1
        insertedIndex?[object.objectID] = nil
    }

    /// Forgets every inserted object.
    func clearInserted() {
        insertedList = []
        insertedCount = 0
        insertedIndex = nil
    }
}
