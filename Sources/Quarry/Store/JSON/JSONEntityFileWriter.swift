/// Writes the objects of one entity as a JSON store entity file (`<Entity>.json`).
///
/// The file is an object from primary key (a decimal string) to the object's values, one
/// object per line in primary-key order, properties in model order: attributes (a `nil` value
/// left out), to-ones as `"Entity.id"` and to-manys as arrays of those (empty ones left out).
/// Equal stores give identical files.
///
/// ```json
/// {
///   "1": {"name": "Tech", "tickers": ["Ticker.1", "Ticker.2"]},
///   "2": {"name": "Energy"}
/// }
/// ```
struct JSONEntityFileWriter {
    let model: ManagedObjectModel
    let layout: InMemoryLayout
    let state: InMemoryState

    /// The text of the file of `entity` (its own objects, not those of sub-entities).
    func text(of entity: EntityDescription) -> String {
        let table = state.rows[entity.rootIndex] ?? [:]
        let keys = table.keys.filter { table[$0]!.entityIndex == entity.index }.sorted()
        guard !keys.isEmpty else { return "{}\n" }
        let toMany: [Int: [ObjectID: [ObjectID]]] = Dictionary(uniqueKeysWithValues: entity.relationships.indices.compactMap { r in
            layout.toMany[entity.index][r].map { (r, state.allMembers(storage: $0, model: model)) }
        })
        var lines: [String] = []
        lines.reserveCapacity(keys.count)
        for pk in keys {
            let id = ObjectID(entityIndex: entity.index, primaryKey: pk)
            lines.append("  \"\(pk)\": " + object(table[pk]!.snapshot, id: id, entity: entity, toMany: toMany))
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    private func object(_ snapshot: Snapshot, id: ObjectID, entity: EntityDescription,
                        toMany: [Int: [ObjectID: [ObjectID]]]) -> String {
        var fields: [String] = []
        for (i, attribute) in entity.attributes.enumerated() where !attribute.isTransient {
            let value = snapshot.values[i]
            if value.isNull { continue }
            fields.append(JSONModelValues.quoted(attribute.name) + ": " + JSONStoreValue.encode(value))
        }
        for (r, relationship) in entity.relationships.enumerated() {
            let name = JSONModelValues.quoted(relationship.name)
            if let members = toMany[r] {
                guard let list = members[id], !list.isEmpty else { continue }
                fields.append(name + ": [" + list.map(reference).joined(separator: ", ") + "]")
            } else if let target = snapshot.toOne[r] {
                fields.append(name + ": " + reference(target))
            }
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// `"Entity.id"`, naming the object's concrete entity.
    private func reference(_ id: ObjectID) -> String {
        "\"\(model.entities[Int(id.entityIndex)].name).\(id.primaryKey)\""
    }
}
