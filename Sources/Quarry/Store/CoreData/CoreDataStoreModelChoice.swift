import Foundation

/// How well a candidate model fits a store, by names: its entities found in the store
/// (`Z_PRIMARYKEY`, or the entity names of `NSStoreModelVersionHashes`), and its stored
/// properties found as columns of their table.
///
/// Apple's entity version hash (the values of `NSStoreModelVersionHashes`) is not documented
/// and not reproduced here, so a bundle's version is chosen by this score instead; the
/// store's hash *names* still count, as the entity set the store was written with.
struct CoreDataStoreModelScore: Comparable, CustomStringConvertible {
    var entitiesMatched = 0
    var entities = 0
    /// Store entities the model lacks.
    var entitiesMissing = 0
    var propertiesMatched = 0
    var properties = 0

    var isExact: Bool { entitiesMatched == entities && entitiesMissing == 0 && propertiesMatched == properties }
    /// A fit worth using: most of the model's entities and properties are in the store.
    var isUsable: Bool { entitiesMatched * 2 > entities && propertiesMatched * 2 >= properties }

    static func < (a: Self, b: Self) -> Bool {
        let x = a.entitiesMatched - a.entitiesMissing - (a.entities - a.entitiesMatched)
        let y = b.entitiesMatched - b.entitiesMissing - (b.entities - b.entitiesMatched)
        if x != y { return x < y }
        return a.propertiesMatched - (a.properties - a.propertiesMatched) < b.propertiesMatched - (b.properties - b.propertiesMatched)
    }

    var description: String {
        "\(entitiesMatched) of \(entities) entities, \(propertiesMatched) of \(properties) properties"
    }

    /// Scores `model` against the store.
    static func score(_ model: ManagedObjectModel, schema: CoreDataStoreSchema, metadata: CoreDataStoreMetadata) -> Self {
        let storeNames = metadata.entityVersionHashes.isEmpty ? Set(schema.entities.map(\.name)) : Set(metadata.entityVersionHashes.keys)
        var score = Self()
        score.entities = model.entities.count
        score.entitiesMatched = model.entities.filter { storeNames.contains($0.name) }.count
        score.entitiesMissing = storeNames.subtracting(model.entities.map(\.name)).count
        for e in model.entities {
            let root = model.entities[e.rootIndex].name
            let columns = Set((schema.columns(of: CoreDataStoreSchema.tableName(ofRoot: root)) ?? []).map { $0.name.uppercased() })
            let matcher = CoreDataStoreColumnMatcher(columns: (schema.columns(of: CoreDataStoreSchema.tableName(ofRoot: root)) ?? []))
            for a in e.definition.attributes where !a.isTransient {
                score.properties += 1
                if columns.contains("Z" + a.name.uppercased()) || !matcher.valueCandidates(a.name, excluded: []).isEmpty { score.propertiesMatched += 1 }
            }
            for r in e.definition.relationships where !r.isToMany {
                score.properties += 1
                if columns.contains("Z" + r.name.uppercased()) || !matcher.valueCandidates(r.name, excluded: []).isEmpty { score.propertiesMatched += 1 }
            }
        }
        return score
    }
}
