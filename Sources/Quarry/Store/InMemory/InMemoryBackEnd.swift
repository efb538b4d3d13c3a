/// A stack's in-memory back end: one ``InMemoryStore`` both coordinators share; nothing on
/// disk to destroy, nothing else to write it.
struct InMemoryBackEnd: StoreBackEnd {
    let main: InMemoryStore
    var writer: InMemoryStore { main }

    /// A new, empty store for `model`.
    static func open(model: ManagedObjectModel) -> InMemoryBackEnd {
        InMemoryBackEnd(main: InMemoryStore(model: model))
    }

    /// Nothing to delete: the stack's next back end is a new, empty store.
    func destroy() throws {}
}
