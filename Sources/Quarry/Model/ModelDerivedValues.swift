import Synchronization

/// Values computed from a ``ManagedObjectModel`` once and kept with it, one per type (a
/// store's table layout, for instance): a model never changes, so neither do they. The model
/// knows nothing of what is kept; each kind of value is asked for by its own code.
final class ModelDerivedValues: Sendable {
    private let values = Mutex<[ObjectIdentifier: any Sendable]>([:])

    /// The kept value of type `T`, made by `make` on first use (under the lock, so two
    /// threads asking at once make it once).
    func value<T: Sendable>(_ make: () -> T) -> T {
        values.withLock { values in
            if let kept = values[ObjectIdentifier(T.self)] as? T { return kept }
            let made = make()
            values[ObjectIdentifier(T.self)] = made
            return made
        }
    }
}
