extension JSONStore {
    /// A new in-memory store holding this store's objects with the same IDs and identifier,
    /// independent of it: saves to the copy never reach the folder. What fixtures and tests
    /// load once and then change freely.
    ///
    /// ```swift
    /// let fixtures = try JSONStore(url: folder, model: nil, readOnly: true).inMemoryCopy()
    /// ```
    public func inMemoryCopy() -> InMemoryStore {
        let copy = InMemoryStore(model: model, identifier: identifier)
        let state = memory.state.sync { $0 }
        copy.state.sync { $0 = state }
        return copy
    }
}
