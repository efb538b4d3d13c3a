import Synchronization

/// The models last decoded from stores' recorded model text (`Z_METADATA.model`), by text.
///
/// One command reads a store's metadata several times (the look before opening, the migration
/// plan, the open itself), and a model of thousands of entities takes about a second to
/// decode: each text is decoded once. Models are immutable, so one is shared by every reader
/// of the same text; only successful decodes are kept, the last ``capacity`` of them.
enum StoredModelCache {
    /// How many decoded models are kept.
    static let capacity = 4
    private static let entries = Mutex<[(text: String, model: ManagedObjectModel)]>([])

    /// The model of `text`: the one decoded before, else `decode(text)`'s, then kept.
    static func model(for text: String, decode: (String) throws -> ManagedObjectModel) rethrows -> ManagedObjectModel {
        if let known = entries.withLock({ $0.first { $0.text == text }?.model }) { return known }
        let model = try decode(text)
        entries.withLock { entries in
            entries.insert((text, model), at: 0)
            if entries.count > capacity { entries.removeLast() }
        }
        return model
    }
}
