import Foundation
import GRDB

extension CoreDataFixture {
    /// The entity rows and join-table rows, with each object's `Z_PK` and each table's largest.
    struct Rows {
        var statements: [Statement] = []
        var primaryKeys: [String: (entity: String, pk: Int64)] = [:]
        var maxima: [String: Int64] = [:]
    }

    /// Core Data spaces the keys of ordered relationships so an insertion rarely renumbers.
    static let orderStep: Int64 = 1024

    func rowStatements(_ layout: CoreDataFixtureLayout) throws(CoreDataFixtureError) -> Rows {
        var rows = Rows()
        var byKey: [String: Object] = [:]
        for object in objects {
            guard let entity = layout.entities[object.entity] else { throw .unknownEntity(object.entity, referencedBy: "object \(object.key)") }
            guard !entity.isAbstract else { throw .abstractObject(key: object.key, entity: entity.name) }
            guard byKey[object.key] == nil else { throw .duplicateObjectKey(object.key) }
            byKey[object.key] = object
            let root = layout.root(of: object.entity)
            let pk = rows.maxima[root, default: 0] + 1
            rows.maxima[root] = pk
            rows.primaryKeys[object.key] = (object.entity, pk)
        }
        // Every link, validated, whichever side it was given on.
        var incoming: [String: [(source: String, relationship: String)]] = [:]
        for object in objects {
            for (name, targets) in object.links.sorted(by: { $0.key < $1.key }) {
                let r = try relationship(name, of: object.entity, layout)
                if !r.isToMany && targets.count > 1 { throw .conflictingLinks(object: object.key, relationship: name) }
                for target in targets {
                    guard let other = byKey[target] else { throw .unknownObject(target, referencedBy: "\(object.key).\(name)") }
                    guard layout.isKind(other.entity, of: r.destination) else {
                        throw .wrongDestination(object: object.key, relationship: name, target: target, entity: other.entity)
                    }
                    incoming[target, default: []].append((object.key, name))
                }
            }
        }
        /// The objects `key`'s relationship `r` holds, in order: its own links, then those given
        /// from the other side.
        func related(_ key: String, _ r: Relationship) -> [String] {
            var list = byKey[key]!.links[r.name] ?? []
            for link in incoming[key] ?? [] where link.relationship == r.inverse && !list.contains(link.source) {
                if layout.isKind(byKey[link.source]!.entity, of: r.destination) { list.append(link.source) }
            }
            return list
        }

        for object in objects {
            let table = layout.table(of: object.entity)
            var values: [String: DatabaseValue] = [
                "Z_PK": rows.primaryKeys[object.key]!.pk.databaseValue,
                "Z_ENT": layout.numbers[object.entity]!.databaseValue, "Z_OPT": 1.databaseValue,
            ]
            for (name, value) in object.values {
                guard let owner = layout.lineage(of: object.entity).first(where: { $0.attributes.contains { $0.name == name } }) else {
                    throw .unknownProperty(entity: object.entity, property: name)
                }
                let attribute = owner.attributes.first { $0.name == name }!
                values[layout.attributeColumns[owner.name]![name]!] = try Self.databaseValue(value, for: attribute, of: owner.name)
            }
            for owner in layout.lineage(of: object.entity) {
                for r in owner.relationships where !r.isToMany {
                    let targets = related(object.key, r)
                    guard let target = targets.first else { continue }
                    guard targets.count == 1 else { throw .conflictingLinks(object: object.key, relationship: r.name) }
                    let slot = layout.toOneColumns[owner.name]![r.name]!
                    values[slot.key] = rows.primaryKeys[target]!.pk.databaseValue
                    if let column = slot.entity { values[column] = layout.numbers[byKey[target]!.entity]!.databaseValue }
                    if let column = slot.order, let inverse = layout.entities[r.destination]!.relationships.first(where: { $0.name == r.inverse }) {
                        let position = related(target, inverse).firstIndex(of: object.key) ?? 0
                        values[column] = (Int64(position + 1) * Self.orderStep).databaseValue
                    }
                }
            }
            let columns = table.columns.map(\.name).filter { values[$0] != nil }
            rows.statements.append(Statement(
                sql: "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
                arguments: columns.map { values[$0]! }
            ))
        }

        for join in layout.joinTables {
            let r = layout.entities[join.entity]!.relationships.first { $0.name == join.relationship }!
            let inverse = layout.entities[join.inverseEntity]!.relationships.first { $0.name == join.inverse }!
            for object in objects where layout.isKind(object.entity, of: join.entity) {
                for target in related(object.key, r) {
                    var columns = [join.ownColumn, join.otherColumn]
                    var arguments = [rows.primaryKeys[object.key]!.pk.databaseValue, rows.primaryKeys[target]!.pk.databaseValue]
                    if let column = join.ownOrderColumn {
                        columns.append(column)
                        arguments.append((Int64((related(target, inverse).firstIndex(of: object.key) ?? 0) + 1) * Self.orderStep).databaseValue)
                    }
                    if let column = join.otherOrderColumn {
                        columns.append(column)
                        arguments.append((Int64((related(object.key, r).firstIndex(of: target) ?? 0) + 1) * Self.orderStep).databaseValue)
                    }
                    rows.statements.append(Statement(
                        sql: "INSERT INTO \(join.name) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
                        arguments: arguments
                    ))
                }
            }
        }
        return rows
    }

    private func relationship(_ name: String, of entity: String, _ layout: CoreDataFixtureLayout) throws(CoreDataFixtureError) -> Relationship {
        for owner in layout.lineage(of: entity) {
            if let r = owner.relationships.first(where: { $0.name == name }) { return r }
        }
        throw .unknownProperty(entity: entity, property: name)
    }

    /// `value` as Core Data stores an attribute of `attribute.type`.
    static func databaseValue(_ value: Value, for attribute: Attribute, of entity: String) throws(CoreDataFixtureError) -> DatabaseValue {
        switch (attribute.type, value) {
        case (.integer16, .integer(let i)), (.integer32, .integer(let i)), (.integer64, .integer(let i)): return i.databaseValue
        case (.boolean, .bool(let b)): return (b ? 1 : 0).databaseValue
        case (.double, .double(let d)), (.float, .double(let d)), (.decimal, .double(let d)): return d.databaseValue
        case (.string, .string(let s)): return s.databaseValue
        case (.date, .date(let d)): return d.timeIntervalSinceReferenceDate.databaseValue
        case (.binary, .data(let d)), (.transformable, .data(let d)): return d.databaseValue
        case (.uuid, .uuid(let u)): return withUnsafeBytes(of: u.uuid) { Data($0) }.databaseValue
        case (.uri, .uri(let url)): return url.absoluteString.databaseValue
        default:
            throw .wrongValue(entity: entity, attribute: attribute.name, expected: "of type code \(attribute.type.code)", found: value.kind)
        }
    }
}
