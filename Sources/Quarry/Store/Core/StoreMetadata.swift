import Foundation

/// What a store's `Z_METADATA` table records, the same in every SQL back end: enough to open
/// the store without its model file.
public struct StoreMetadata: Sendable {
    /// The store's UUID, fixed at creation.
    public var identifier: UUID
    /// The model the store was created with, decoded from the JSON copy in the file.
    public var model: ManagedObjectModel
    /// The model's version hash when the store was created.
    public var modelVersionHash: String
    /// Each entity's version hash when the store was created, by entity name.
    public var entityVersionHashes: [String: String]
}

extension StoreMetadata {

    /// The metadata recorded by the rows of a `Z_METADATA` table.
    init(values: [String: String], path: String) throws {
        func corrupt(_ reason: String) -> StoreError { StoreError.corruptMetadata(path: path, reason: reason) }
        guard let identifier = values[MetadataKey.identifier].flatMap(UUID.init(uuidString:)) else { throw corrupt("no store identifier") }
        guard let hash = values[MetadataKey.modelVersionHash] else { throw corrupt("no model version hash") }
        guard let json = values[MetadataKey.model] else { throw corrupt("no model") }
        let model: ManagedObjectModel
        do {
            // Names were checked when the store was made; one converted from a database Quarry did
            // not make keeps that database's names (``ManagedObjectModel/NamePolicy/anyText``).
            model = try StoredModelCache.model(for: json) {
                try ManagedObjectModel(ModelDefinition(jsonText: $0, path: "\(path) (Z_METADATA.model)"), namePolicy: .anyText)
            }
        } catch {
            throw corrupt("stored model: \(error)")
        }
        guard model.versionHash == hash else { throw corrupt("stored model does not match its version hash") }
        var entityHashes: [String: String] = [:]
        for (key, value) in values where key.hasPrefix(MetadataKey.entityHashPrefix) {
            entityHashes[String(key.dropFirst(MetadataKey.entityHashPrefix.count))] = value
        }
        self.init(identifier: identifier, model: model, modelVersionHash: hash, entityVersionHashes: entityHashes)
    }

    /// The metadata rows that record `model` (its JSON, version hashes and the Quarry version),
    /// the same in an SQLite and a PostgreSQL store.
    static func rows(recording model: ManagedObjectModel) -> [(key: String, value: String)] {
        [
            (MetadataKey.modelVersionHash, model.versionHash),
            (MetadataKey.model, model.definition.jsonText()),
            (MetadataKey.quarryVersion, QuarryVersion.string),
        ] + model.entities.map { (MetadataKey.entityHashPrefix + $0.name, $0.versionHash) }
    }

    /// The entities that were added, removed or changed between a stored model and `model`.
    static func differingEntities(stored: [String: String], current model: ManagedObjectModel) -> [String] {
        let current = model.entityVersionHashes
        return Set(stored.keys).union(current.keys).filter { stored[$0] != current[$0] }.sorted()
    }
}

/// Keys of the `Z_METADATA` table.
enum MetadataKey {
    static let identifier = "identifier"
    static let modelVersionHash = "modelVersionHash"
    static let model = "model"
    static let quarryVersion = "quarryVersion"
    static let entityHashPrefix = "entityVersionHash."
    /// The save count and the last save's UUID (see ``SQLiteStore/modificationToken()``).
    static let saveToken = "saveToken"
    /// `1` when saves record persistent history, `0` when the store was made with it off
    /// (absent: made before history existed; see ``SQLiteStore/prepareHistory(pool:path:options:)``).
    static let recordsHistory = "history.records"
    /// The newest history token pruning deleted (absent: nothing was pruned).
    static let historyPrunedThrough = "history.prunedThrough"
    /// Prefix of the last history token each consumer merged (``PersistentStack/setLastMergedHistoryToken(_:consumer:)``).
    static let historyConsumerPrefix = "history.consumer."
}
