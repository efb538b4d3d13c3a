/// Objects of one kind (inserted, or updated) that a merged save changed and the merging
/// context has not registered: their IDs and, in the same order, the state the save stored for
/// each (when the save carried it) and, for updates, the properties that changed (when the store
/// recorded them).
///
/// Announced in ``ObjectsDidChange/mergedInserted`` and ``ObjectsDidChange/mergedUpdated``
/// after ``ObjectContext/merge(fromDidSave:)``, so that an observer (such as a fetched-results
/// controller) can decide about them in one batch without loading them.
///
/// ```swift
/// context.addObjectsDidChangeObserver { change in
///     for object in change.mergedInserted {
///         if let state = object.snapshot { show(object.id, state) } else { load(object.id) }
///     }
/// }
/// ```
///
/// Either every object has its stored state (``carriesSnapshots``) or none has; likewise for
/// the changed properties. Debug builds check this after every change.
public struct MergedObjects: Sendable, Equatable {
    /// The objects' IDs, in the save's order.
    public private(set) var ids: [ObjectID]
    /// The state the save stored for each of ``ids``, in the same order; empty unless
    /// ``carriesSnapshots``.
    public private(set) var snapshots: [Snapshot]
    /// The changed properties of each of ``ids`` as ``PropertyMask/lowBits``, in the same
    /// order; empty unless ``carriesChangedBits``.
    private(set) var changedBits: [UInt64]
    /// Whether ``snapshots`` holds the stored state of every object.
    public let carriesSnapshots: Bool
    /// Whether ``changedBits`` holds the changed properties of every object.
    let carriesChangedBits: Bool

    /// No objects, with neither stored states nor changed properties.
    public init() {
        self.init(carryingSnapshots: false, changedBits: false)
    }

    /// No objects yet; ``append(_:snapshot:changedBits:)`` must then give a state for each
    /// object when `carryingSnapshots`, and changed properties when `changedBits`.
    init(carryingSnapshots: Bool, changedBits: Bool) {
        ids = []
        snapshots = []
        self.changedBits = []
        carriesSnapshots = carryingSnapshots
        carriesChangedBits = changedBits
    }

    /// All of a save's objects of one kind, taking its arrays as they are (no copy):
    /// `snapshots` and `changedBits` are each `nil` (not carried) or as long as `ids`.
    init(ids: [ObjectID], snapshots: [Snapshot]?, changedBits: [UInt64]?) {
        self.ids = ids
        self.snapshots = snapshots ?? []
        self.changedBits = changedBits ?? []
        carriesSnapshots = snapshots != nil
        carriesChangedBits = changedBits != nil
        checkInvariantsInDebugBuilds()
    }

    /// Adds one object, with its stored state and its changed properties: each must be given
    /// exactly when this value carries them.
    mutating func append(_ id: ObjectID, snapshot: Snapshot? = nil, changedBits bits: UInt64? = nil) {
        ids.append(id)
        if let snapshot { snapshots.append(snapshot) }
        if let bits { changedBits.append(bits) }
        checkInvariantsInDebugBuilds()
    }

    /// Reserves room for `count` objects in all, so that appending them allocates no more.
    mutating func reserveCapacity(_ count: Int) {
        ids.reserveCapacity(count)
        if carriesSnapshots { snapshots.reserveCapacity(count) }
        if carriesChangedBits { changedBits.reserveCapacity(count) }
    }

    /// The stored state of the object at `position`, when carried.
    public func snapshot(at position: Int) -> Snapshot? {
        carriesSnapshots ? snapshots[position] : nil
    }

    /// The changed properties of the object at `position`, when recorded.
    func changedBits(at position: Int) -> UInt64? {
        carriesChangedBits ? changedBits[position] : nil
    }

    /// The first broken invariant, described (`nil` when all hold).
    func invariantViolation() -> String? {
        if carriesSnapshots ? snapshots.count != ids.count : !snapshots.isEmpty {
            return "\(snapshots.count) snapshots for \(ids.count) IDs (carried: \(carriesSnapshots))"
        }
        if carriesChangedBits ? changedBits.count != ids.count : !changedBits.isEmpty {
            return "\(changedBits.count) changed-bit words for \(ids.count) IDs (carried: \(carriesChangedBits))"
        }
        return nil
    }

    /// In debug builds, stops with the broken invariant named when one is; nothing in release
    /// builds. O(1).
    @inline(__always)
    private func checkInvariantsInDebugBuilds() {
        #if DEBUG
        if let violation = invariantViolation() { assertionFailure("merged objects invariant broken: \(violation)") }
        #endif
    }

    /// Whether both hold the same objects with the same states and changed properties (two
    /// empty values are equal whatever they would carry).
    public static func == (a: MergedObjects, b: MergedObjects) -> Bool {
        a.ids == b.ids && a.snapshots == b.snapshots && a.changedBits == b.changedBits
    }
}

extension MergedObjects: RandomAccessCollection {
    /// One merged object: its ID and, when carried, its stored state.
    public struct Element: Sendable, Equatable {
        /// The object's ID.
        public var id: ObjectID
        /// The state the save stored for it, when the save carried it.
        public var snapshot: Snapshot?
    }

    /// The position of the first object (0).
    public var startIndex: Int { 0 }
    /// The position after the last object.
    public var endIndex: Int { ids.count }

    /// The object at `position`.
    public subscript(position: Int) -> Element {
        Element(id: ids[position], snapshot: snapshot(at: position))
    }
}
