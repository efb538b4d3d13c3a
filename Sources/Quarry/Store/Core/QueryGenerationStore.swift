/// A store that can pin reads to one moment: Core Data's query generations.
///
/// ``ObjectContext/setQueryGeneration(from:)`` pins a root context to the store's state when
/// it is called: its fetches, faults and relationship reads see that state until the context
/// advances (its own save, ``ObjectContext/reset()``, a merge, another pin) while other
/// contexts and processes keep saving. SQLite holds one read transaction on the write-ahead
/// log; PostgreSQL holds one `REPEATABLE READ` transaction on a pooled connection; the
/// in-memory and JSON stores keep a copy of their state.
public protocol QueryGenerationStore: PersistentStore {
    /// A read-only store reading this store's state as of now, until it is released.
    func pinnedGeneration() throws -> any PersistentStore
}
