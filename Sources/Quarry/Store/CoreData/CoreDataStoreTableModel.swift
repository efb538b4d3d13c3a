/// The model of a Core Data store recovered from its tables alone, when neither `--model` nor
/// `Z_MODELCACHE` gives one: entities and inheritance from `Z_PRIMARYKEY`; each `Z<NAME>`
/// column of a tree's table an attribute of its root, named `<name>` lowercased (Core Data's
/// column names are uppercase, so the original case is lost); types from the declared types
/// (`TIMESTAMP` a date, `VARCHAR` a string, `FLOAT` a double, `BLOB` binary); an `INTEGER`
/// column named after an entity a to-one relationship to it.
enum CoreDataStoreTableModel {
    /// The definition recovered from `schema`; entities whose table is missing are kept empty,
    /// with a warning.
    static func definition(_ schema: CoreDataStoreSchema, warnings: inout [String]) -> ModelDefinition {
        let byNumber = Dictionary(schema.entities.map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
        let byUpperName = Dictionary(schema.entities.map { ($0.name.uppercased(), $0.name) }, uniquingKeysWith: { a, _ in a })
        var entities: [EntityDefinition] = []
        for e in schema.entities {
            var definition = EntityDefinition(name: e.name)
            if e.superNumber != 0, let parent = byNumber[e.superNumber] {
                if inheritsFromItself(e, byNumber) {
                    warnings.append("Z_PRIMARYKEY: entity \(e.name)'s Z_SUPER chain loops; read as a root entity")
                } else {
                    definition.parent = parent.name
                }
            }
            if definition.parent == nil {
                let table = CoreDataStoreSchema.tableName(ofRoot: e.name)
                if let columns = schema.columns(of: table) {
                    addProperties(from: columns, to: &definition, entityNames: byUpperName)
                } else {
                    warnings.append("Z_PRIMARYKEY names entity \(e.name), but its table \(table) is missing; shown empty")
                }
            }
            entities.append(definition)
        }
        return ModelDefinition(entities: entities)
    }

    /// Whether following `Z_SUPER` from `entity` comes back to it.
    private static func inheritsFromItself(_ entity: CoreDataStoreSchema.Entity, _ byNumber: [Int: CoreDataStoreSchema.Entity]) -> Bool {
        var current = entity.superNumber
        var seen: Set<Int> = []
        while current != 0, let next = byNumber[current] {
            if next.number == entity.number { return true }
            guard seen.insert(current).inserted else { return false }
            current = next.superNumber
        }
        return false
    }

    private static func addProperties(from columns: [CoreDataStoreSchema.Column], to entity: inout EntityDefinition, entityNames: [String: String]) {
        var taken = Set<String>()
        for column in columns {
            let upper = column.name.uppercased()
            guard upper.hasPrefix("Z"), !upper.hasPrefix("Z_"), upper.count > 1,
                  CoreDataStoreColumnMatcher.droppingNumber(upper, after: "Z")?.hasPrefix("_") != true else { continue }
            let name = String(column.name.dropFirst()).lowercased()
            guard ModelResolver.isValidName(name), taken.insert(name).inserted else { continue }
            let stem = String(upper.dropFirst().reversed().drop { $0.isASCIIDigit }.reversed())
            if column.type.contains("INT"), let destination = entityNames[stem] {
                entity.relationships.append(RelationshipDescription(name: name, destination: destination))
            } else {
                entity.attributes.append(AttributeDescription(name: name, type: type(column.type)))
            }
        }
    }

    /// The attribute type of a column declared `declared`.
    static func type(_ declared: String) -> AttributeType {
        if declared.contains("TIMESTAMP") || declared.contains("DATE") { return .date }
        if declared.contains("INT") { return .integer64 }
        if declared.contains("FLOAT") || declared.contains("REAL") || declared.contains("DOUB") { return .double }
        if declared.contains("CHAR") || declared.contains("TEXT") || declared.contains("CLOB") { return .string }
        if declared.contains("DECIMAL") || declared.contains("NUM") { return .decimal }
        return .binary
    }
}
