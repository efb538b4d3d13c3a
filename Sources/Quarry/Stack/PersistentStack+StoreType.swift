extension PersistentStack {
    /// Which store a stack opens (RBCoreDataAdditions' configurable store type, M3's manager).
    public enum StoreType: String, Sendable, CaseIterable {
        /// ``SQLiteStore``: a file; the main and writer coordinators each get their own connections.
        case sqlite
        /// ``JSONStore``: a folder of JSON files, loaded whole; both coordinators share the instance.
        case json
        /// ``InMemoryStore``: nothing on disk; both coordinators share the instance.
        case inMemory
    }
}
