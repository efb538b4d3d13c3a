import Foundation
import Synchronization

/// What a context announces after a successful save.
public struct DidSaveEvent: Sendable {
    /// The saved changes (permanent IDs when the save reached the store).
    public var changes: SaveChanges
    /// The saving context's name.
    public var contextName: String?
    /// Identifies the saving context.
    public var contextID: ObjectIdentifier
    /// The identifier of the coordinator the save went through (the root's, for a child).
    public var coordinatorID: UUID
    /// Whether the save was written to the store (`false` for a child's save into its parent).
    public var reachedStore: Bool
}

/// What changed among a context's registered objects since the last announcement.
///
/// Posted after local changes (coalesced until the context processes pending changes: at the
/// end of the current queue turn, before a save, or on ``ObjectContext/processPendingChanges()``),
/// after a child's save, and after a merge.
public struct ObjectsDidChange: @unchecked Sendable {
    // Holds objects confined to the posting context's queue; read it on that queue.
    /// Objects inserted in the context.
    public var inserted: [ManagedObject] = []
    /// Registered objects that changed (locally or by a merge).
    public var updated: [ManagedObject] = []
    /// Objects deleted (locally, or forgotten because a merged save deleted them).
    public var deleted: [ManagedObject] = []
    /// Objects whose values were reloaded by a merge or refresh.
    public var refreshed: [ManagedObject] = []
    /// Every object was invalidated (``ObjectContext/reset()``): observers must reload.
    public var invalidatedAll = false
    /// The store changed in ways no change set describes (a program that bypassed Quarry, or
    /// history pruned behind the stack; see ``ObjectContext/mergeExternalStoreChange()``):
    /// observers re-read what they show. A fetched-results controller re-fetches and reports the
    /// difference as row changes.
    public var storeChangedExternally = false
    /// A read the context needed for this change and could not make (the objects concerned
    /// became faults, read again when next used); `nil` when every read succeeded.
    public var readError: ContextReadError?
    /// Objects a merged save inserted, with the state it stored for each when it carried it
    /// (see ``SaveChanges/carriesSnapshots``); not loaded: announced only.
    public var mergedInserted = MergedObjects()
    /// Objects a merged save updated that are not registered here, with the state it stored for
    /// each when it carried it and the properties that changed when the store recorded them;
    /// not loaded: announced only.
    public var mergedUpdated = MergedObjects()
    /// IDs a merged save deleted.
    public var mergedDeletedIDs: [ObjectID] = []
    /// Changed keys per updated ID, when known.
    public var changedKeys: [ObjectID: Set<String>] = [:]
    /// Objects whose temporary IDs became permanent in a save (temporary → permanent).
    /// Announced to observers added with ``ObjectContext/addObjectsDidChangeObserver(_:)``.
    public var permanentIDs: [ObjectID: ObjectID] = [:]

    /// Creates an empty announcement.
    public init() {}

    /// Whether nothing is announced.
    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty && !invalidatedAll && !storeChangedExternally && readError == nil
            && mergedInserted.isEmpty && mergedUpdated.isEmpty && mergedDeletedIDs.isEmpty && permanentIDs.isEmpty
    }
}

extension ObjectContext {
    /// Posted to `NotificationCenter.default` after each successful save, with the context as
    /// `object` and a ``DidSaveEvent`` under ``eventUserInfoKey``.
    public static let didSaveNotification = Notification.Name("QuarryContextDidSave")
    /// Posted to `NotificationCenter.default` with an ``ObjectsDidChange`` under ``eventUserInfoKey``.
    public static let objectsDidChangeNotification = Notification.Name("QuarryObjectsDidChange")
    /// The `userInfo` key holding the event.
    public static let eventUserInfoKey = "event"

    /// Calls `block` (on the saving context's queue) after every successful save of this context.
    @discardableResult
    public func addDidSaveObserver(_ block: @escaping @Sendable (DidSaveEvent) -> Void) -> ObservationToken {
        observers.add(didSave: block)
    }

    /// Calls `block` (on this context's queue) with every objects-did-change announcement.
    @discardableResult
    public func addObjectsDidChangeObserver(_ block: @escaping @Sendable (ObjectsDidChange) -> Void) -> ObservationToken {
        observers.add(didChange: block)
    }

    /// The did-save events of this context, as an `AsyncSequence`.
    public func didSaveEvents() -> AsyncStream<DidSaveEvent> {
        let (stream, continuation) = AsyncStream<DidSaveEvent>.makeStream()
        let token = addDidSaveObserver { continuation.yield($0) }
        continuation.onTermination = { _ in token.cancel() }
        return stream
    }

    /// The objects-did-change announcements of this context, as an `AsyncSequence`.
    public func objectsDidChangeEvents() -> AsyncStream<ObjectsDidChange> {
        let (stream, continuation) = AsyncStream<ObjectsDidChange>.makeStream()
        let token = addObjectsDidChangeObserver { continuation.yield($0) }
        continuation.onTermination = { _ in token.cancel() }
        return stream
    }

    func announce(_ event: DidSaveEvent) {
        relayToChildren(event.changes)
        observers.post(event)
        NotificationCenter.default.post(name: Self.didSaveNotification, object: self, userInfo: [Self.eventUserInfoKey: event])
    }

    func announce(_ change: ObjectsDidChange) {
        guard !change.isEmpty else { return }
        observers.post(change)
        NotificationCenter.default.post(name: Self.objectsDidChangeNotification, object: self, userInfo: [Self.eventUserInfoKey: change])
    }
}

extension Notification {
    /// The ``DidSaveEvent`` of a ``ObjectContext/didSaveNotification``.
    public var didSaveEvent: DidSaveEvent? { userInfo?[ObjectContext.eventUserInfoKey] as? DidSaveEvent }
    /// The ``ObjectsDidChange`` of a ``ObjectContext/objectsDidChangeNotification``.
    public var objectsDidChange: ObjectsDidChange? { userInfo?[ObjectContext.eventUserInfoKey] as? ObjectsDidChange }
}

/// Cancels an observation when ``cancel()`` is called.
public final class ObservationToken: Sendable {
    private let onCancel: @Sendable () -> Void
    init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }
    /// Stops the observation.
    public func cancel() { onCancel() }
}

/// The observer lists of one context.
final class ContextObservers: Sendable {
    private struct Lists {
        var nextID = 0
        var didSave: [Int: @Sendable (DidSaveEvent) -> Void] = [:]
        var didChange: [Int: @Sendable (ObjectsDidChange) -> Void] = [:]
    }
    private let lists = Mutex(Lists())

    func add(didSave block: @escaping @Sendable (DidSaveEvent) -> Void) -> ObservationToken {
        let id = lists.withLock { l in l.nextID += 1; l.didSave[l.nextID] = block; return l.nextID }
        return ObservationToken { [weak self] in self?.lists.withLock { _ = $0.didSave.removeValue(forKey: id) } }
    }

    func add(didChange block: @escaping @Sendable (ObjectsDidChange) -> Void) -> ObservationToken {
        let id = lists.withLock { l in l.nextID += 1; l.didChange[l.nextID] = block; return l.nextID }
        return ObservationToken { [weak self] in self?.lists.withLock { _ = $0.didChange.removeValue(forKey: id) } }
    }

    var hasDidChangeObservers: Bool { lists.withLock { !$0.didChange.isEmpty } }

    func post(_ event: DidSaveEvent) {
        for block in lists.withLock({ Array($0.didSave.sorted { $0.key < $1.key }.map(\.value)) }) { block(event) }
    }

    func post(_ change: ObjectsDidChange) {
        for block in lists.withLock({ Array($0.didChange.sorted { $0.key < $1.key }.map(\.value)) }) { block(change) }
    }
}
