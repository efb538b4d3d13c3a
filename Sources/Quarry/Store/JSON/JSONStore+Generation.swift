extension JSONStore: QueryGenerationStore {
    /// A read-only store holding the state of this store now (the JSON store keeps its whole
    /// state in memory between saves; see ``InMemoryStore/pinnedGeneration()``).
    public func pinnedGeneration() throws -> any PersistentStore {
        try memory.pinnedGeneration()
    }
}
