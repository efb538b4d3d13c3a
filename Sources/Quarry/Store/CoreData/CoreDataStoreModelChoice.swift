import Foundation

/// How well a candidate model fits a store, by names: its entities found in the store
/// (`Z_PRIMARYKEY`, or the entity names of `NSStoreModelVersionHashes`), and its stored
/// properties found as columns of their table.
///
/// Apple's entity version hash (the values of `NSStoreModelVersionHashes`) is not documented
/// and not reproduced here, so a bundle's version is chosen by this score instead; the
/// store's hash *names* still count, as the entity set the store was written with.
struct CoreDataStoreModelScore: Comparable, CustomStringConvertible {
    /// The model's entities found in the store.
    var entitiesMatched = 0
    /// The model's entities.
    var entities = 0
    /// Store entities the model lacks.
    var entitiesMissing = 0
    /// The model's stored attributes and to-one keys found as columns of their table.
    var propertiesMatched = 0
    /// The model's stored attributes and to-one keys.
    var properties = 0
    /// Property columns of the model's tables that none of its properties claims.
    var columnsUnclaimed = 0

    /// Everything matches both ways.
    var isExact: Bool { entitiesMatched == entities && entitiesMissing == 0 && propertiesMatched == properties && columnsUnclaimed == 0 }
    /// A fit worth using: most of the model's entities and properties are in the store.
    var isUsable: Bool { entitiesMatched * 2 > entities && propertiesMatched * 2 >= properties }

    /// Ordered by entities (matched minus missing either way), then properties likewise.
    static func < (a: Self, b: Self) -> Bool {
        let x = a.entitiesMatched - a.entitiesMissing - (a.entities - a.entitiesMatched)
        let y = b.entitiesMatched - b.entitiesMissing - (b.entities - b.entitiesMatched)
        if x != y { return x < y }
        return a.propertiesMatched - (a.properties - a.propertiesMatched) - a.columnsUnclaimed
            < b.propertiesMatched - (b.properties - b.propertiesMatched) - b.columnsUnclaimed
    }

    var description: String {
        "\(entitiesMatched) of \(entities) entities, \(propertiesMatched) of \(properties) properties"
            + (columnsUnclaimed > 0 ? ", \(columnsUnclaimed) columns of the store unused" : "")
    }

    /// Scores `model` against the store.
    static func score(_ model: ManagedObjectModel, schema: CoreDataStoreSchema, metadata: CoreDataStoreMetadata) -> Self {
        let storeNames = metadata.entityVersionHashes.isEmpty ? Set(schema.entities.map(\.name)) : Set(metadata.entityVersionHashes.keys)
        var score = Self()
        score.entities = model.entities.count
        score.entitiesMatched = model.entities.filter { storeNames.contains($0.name) }.count
        score.entitiesMissing = storeNames.subtracting(model.entities.map(\.name)).count
        var claimed: [String: Set<String>] = [:]
        for e in model.entities {
            let table = CoreDataStoreSchema.tableName(ofRoot: model.entities[e.rootIndex].name)
            let matcher = CoreDataStoreColumnMatcher(columns: schema.columns(of: table) ?? [])
            let names = e.definition.attributes.filter { !$0.isTransient }.map(\.name)
                + e.definition.relationships.filter { !$0.isToMany }.map(\.name)
            for name in names {
                score.properties += 1
                let found = matcher.valueCandidates(name, excluded: [])
                if !found.isEmpty { score.propertiesMatched += 1 }
                claimed[table, default: []].formUnion(found.map { $0.name.uppercased() })
            }
        }
        for (table, names) in claimed {
            for column in schema.columns(of: table) ?? [] {
                let c = column.name.uppercased()
                guard c.hasPrefix("Z"), !c.hasPrefix("Z_"), CoreDataStoreColumnMatcher.droppingNumber(c, after: "Z")?.hasPrefix("_") != true else { continue }
                if !names.contains(c) { score.columnsUnclaimed += 1 }
            }
        }
        return score
    }
}
