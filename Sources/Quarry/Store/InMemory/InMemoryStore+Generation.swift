extension InMemoryStore: QueryGenerationStore {
    /// A read-only store holding a copy of this store's state now (a value copy: its storage is
    /// shared until this store's next save writes), with the same identity and model.
    public func pinnedGeneration() throws -> any PersistentStore {
        let frozen = InMemoryStore(model: model, identifier: identifier, isReadOnly: true)
        let now = state.sync { $0 }
        frozen.state.sync { $0 = now }
        return frozen
    }
}
