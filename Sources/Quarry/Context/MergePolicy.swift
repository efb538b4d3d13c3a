/// How a save resolves optimistic-locking conflicts, with Core Data's meanings.
///
/// A conflict arises when a row changed in the store since the context loaded it (its row
/// version moved), or when objects of a save clash on a uniqueness constraint (see
/// ``ObjectContext/uniquenessMergePolicy`` and ``ConstraintConflictError``; under the merging
/// policies the clashing objects become one). Policies act at save time only; merging another
/// context's did-save never conflicts (local edits are re-applied over the refreshed values).
public enum MergePolicy: Sendable, Equatable, CustomStringConvertible {
    /// Refuse the save with ``MergeConflictError`` listing every conflict with both versions.
    /// Core Data's default (`NSErrorMergePolicy`).
    case error
    /// Merge by property; where both sides changed a property, the store's (external) value
    /// wins (`NSMergeByPropertyStoreTrumpMergePolicy`).
    case mergeByPropertyStoreTrump
    /// Merge by property; where both sides changed a property, the in-memory value wins
    /// (`NSMergeByPropertyObjectTrumpMergePolicy`).
    case mergeByPropertyObjectTrump
    /// Write the whole in-memory state over the store's (`NSOverwriteMergePolicy`).
    case overwrite
    /// Discard the in-memory changes of conflicting objects; the store's state stands
    /// (`NSRollbackMergePolicy`). It does not make a context read-only.
    case rollback

    public var description: String {
        switch self {
        case .error: return "error"
        case .mergeByPropertyStoreTrump: return "store-trump"
        case .mergeByPropertyObjectTrump: return "object-trump"
        case .overwrite: return "overwrite"
        case .rollback: return "rollback"
        }
    }

    /// Decides how the store applies `conflict`.
    ///
    /// A row deleted from the store meanwhile stays deleted under every policy but ``error``
    /// (nothing is resurrected). A conflicting delete goes ahead under object-trump and
    /// overwrite, and is dropped under store-trump and rollback.
    public func resolve(_ conflict: MergeConflict) -> ConflictResolution {
        if self == .error { return .fail }
        guard let persisted = conflict.persistedSnapshot else { return .keepPersisted }
        guard let object = conflict.objectSnapshot else {
            return self == .mergeByPropertyObjectTrump || self == .overwrite ? .delete : .keepPersisted
        }
        switch self {
        case .error: return .fail
        case .rollback: return .keepPersisted
        case .overwrite: return .write(object)
        case .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump:
            var merged = persisted
            let cached = conflict.cachedSnapshot
            let attributeCount = object.values.count
            for i in conflict.changed.indices {
                if i < attributeCount {
                    let externallyChanged = cached.map { $0.values[i] != persisted.values[i] } ?? true
                    if self == .mergeByPropertyObjectTrump || !externallyChanged { merged.values[i] = object.values[i] }
                } else if i - attributeCount < object.toOne.count {
                    let r = i - attributeCount
                    let externallyChanged = cached.map { $0.toOne[r] != persisted.toOne[r] } ?? true
                    if self == .mergeByPropertyObjectTrump || !externallyChanged { merged.toOne[r] = object.toOne[r] }
                }
            }
            return .write(merged)
        }
    }
}
