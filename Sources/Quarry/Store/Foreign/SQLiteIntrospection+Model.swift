/// Builds the model and the ``ForeignSource`` from what ``SQLiteIntrospection`` read.
extension SQLiteIntrospection {
    static func build(objects: [Object], links: [ForeignKeyLinks.Link], path: String, warnings: [String]) throws -> Result {
        var definitions = objects.map { object in
            EntityDefinition(name: object.entityName, attributes: object.columns.map {
                AttributeDescription(name: $0.attributeName, type: $0.kind.type, isOptional: !$0.notNull)
            })
        }
        for link in links {
            let source = objects[link.source].entityName, destination = objects[link.destination].entityName
            definitions[link.source].relationships.append(
                RelationshipDescription(name: link.relationship, destination: destination, inverse: link.inverse))
            definitions[link.destination].relationships.append(
                RelationshipDescription(name: link.inverse, destination: source, inverse: link.relationship, isToMany: true))
        }
        let model = try ManagedObjectModel(ModelDefinition(entities: definitions), namePolicy: .anyText)
        var source = ForeignSource()
        for object in objects {
            let index = model.entity(named: object.entityName)!.index
            source.tables[index] = table(for: object, setup: &source.setup)
            for column in object.columns {
                source.columns[.attribute(entity: index, name: column.attributeName)] = column.kind.expression
            }
        }
        for link in links {
            let index = model.entity(named: objects[link.source].entityName)!.index
            source.columns[.toOneKey(entity: index, relationship: link.relationship)] = link.keyExpression
        }
        return Result(model: model, source: source, warnings: warnings)
    }

    /// Where `object`'s rows come from, adding the auxiliary tables it needs to `setup` (see
    /// ``ForeignSource/setup``: built once, read through `aux`).
    private static func table(for object: Object, setup: inout [String]) -> ForeignSource.Table {
        let original = "src.\(sqlIdentifier(object.sqlName))"
        switch object.key {
        case .rowid(let key):
            return ForeignSource.Table(from: "\(object.mainSource) AS s", primaryKey: "s.\(key)")
        case .keyTable(let name, let columns):
            let keys = columns.indices.map { "k\($0)" }
            let quoted = columns.map(sqlIdentifier).joined(separator: ", ")
            setup.append("CREATE TABLE \(sqlIdentifier(name)) (Z_PK INTEGER PRIMARY KEY, \(keys.joined(separator: ", ")))")
            setup.append("INSERT INTO \(sqlIdentifier(name)) (\(keys.joined(separator: ", "))) SELECT \(quoted) FROM \(original) ORDER BY \(quoted)")
            setup.append("CREATE UNIQUE INDEX \(sqlIdentifier(name + "_k")) ON \(sqlIdentifier(name)) (\(keys.joined(separator: ", ")))")
            let on = columns.enumerated().map { "s.\(sqlIdentifier($0.element)) = k.k\($0.offset)" }.joined(separator: " AND ")
            return ForeignSource.Table(from: "aux.\(sqlIdentifier(name)) AS k JOIN \(object.mainSource) AS s ON \(on)", primaryKey: "k.Z_PK")
        case .copy(let name):
            setup.append("CREATE TABLE \(sqlIdentifier(name)) AS SELECT * FROM \(original)")
            return ForeignSource.Table(from: "aux.\(sqlIdentifier(name)) AS s", primaryKey: "s.rowid")
        }
    }
}
