/// Reads a JSON store's entity files into the in-memory state the store serves from.
///
/// Every key is checked: a primary key that is not a positive integer, an unknown property, a
/// value of the wrong type, a reference to an object that does not exist (or is of the wrong
/// entity) throws ``JSONStoreError/malformedFile(path:line:column:reason:)`` naming the file,
/// line, column, entity and property.
///
/// Hand-written files (fixtures) may give a relationship from one side only: a to-many lists
/// its members, or each member names its owner, or both; the reader fills in the other side.
/// Sides that disagree (a to-many listing an object whose to-one names another owner) are an error.
struct JSONEntityFileReader {
    let model: ManagedObjectModel
    let layout: InMemoryLayout
    private(set) var state = InMemoryState()
    /// To-many lists as read, applied once every object exists.
    private var lists: [(owner: ObjectID, relationship: Int, members: [(id: ObjectID, node: JSONDocument.Node)], file: JSONStoreFileText)] = []
    /// To-ones as read, checked once every object exists.
    private var toOnes: [(owner: ObjectID, relationship: Int, node: JSONDocument.Node, file: JSONStoreFileText)] = []

    init(model: ManagedObjectModel, layout: InMemoryLayout) {
        self.model = model
        self.layout = layout
    }

    /// Reads the objects of `entity` from `file`.
    mutating func read(_ file: JSONStoreFileText, entity: EntityDescription) throws {
        for member in try file.members(of: file.document.root, "the objects of \(entity.name)") {
            guard let pk = Int64(member.key), pk > 0, String(pk) == member.key else {
                throw file.fault(at: member.keyOffset, "'\(member.key)' is not an object ID (a positive integer)")
            }
            if state.rows[entity.rootIndex]?[pk] != nil {
                throw file.fault(at: member.keyOffset, "ID \(pk) is used twice among the objects of \(entity.rootName) and its sub-entities")
            }
            let id = ObjectID(entityIndex: entity.index, primaryKey: pk)
            let snapshot = try object(member.value, id: id, entity: entity, file: file)
            state.rows[entity.rootIndex, default: [:]][pk] = InMemoryRow(entityIndex: entity.index, snapshot: snapshot)
        }
    }

    private mutating func object(_ node: JSONDocument.Node, id: ObjectID, entity: EntityDescription,
                                 file: JSONStoreFileText) throws -> Snapshot {
        var snapshot = Snapshot(values: Array(repeating: .null, count: entity.attributes.count),
                                toOne: Array(repeating: nil, count: entity.relationships.count), version: 1)
        for member in try file.members(of: node, "\(entity.name) \(id.primaryKey)") {
            if let a = entity.attributeIndex(member.key), !entity.attributes[a].isTransient {
                snapshot.values[a] = try JSONStoreValue.decode(member.value, attribute: entity.attributes[a],
                                                               entity: entity.name, file: file)
            } else if let r = entity.relationshipIndex(member.key) {
                if entity.relationships[r].isToMany {
                    guard case .array(let items) = member.value.kind else {
                        throw file.fault(member.value, "\(entity.name).\(member.key) is to-many: expected an array of \"Entity.id\", found \(member.value.typeName)")
                    }
                    lists.append((id, r, try items.map { (try reference($0, entity: entity, relationship: r, file: file), $0) }, file))
                } else if case .null = member.value.kind {
                    continue
                } else {
                    snapshot.toOne[r] = try reference(member.value, entity: entity, relationship: r, file: file)
                    toOnes.append((id, r, member.value, file))
                }
            } else {
                throw file.fault(at: member.keyOffset, "\(entity.name) has no stored property '\(member.key)'")
            }
        }
        return snapshot
    }

    /// `"Entity.id"` as an ID whose entity is the relationship's destination or a sub-entity of it.
    private func reference(_ node: JSONDocument.Node, entity: EntityDescription, relationship r: Int,
                           file: JSONStoreFileText) throws -> ObjectID {
        let relationship = entity.relationships[r]
        let text = try file.string(node, "\(entity.name).\(relationship.name) (an \"Entity.id\" reference)")
        guard let dot = text.lastIndex(of: "."), let pk = Int64(text[text.index(after: dot)...]), pk > 0,
              let target = model.entity(named: String(text[..<dot]))
        else { throw file.fault(node, "\(entity.name).\(relationship.name): '\(text)' is not an \"Entity.id\" reference") }
        guard let destination = model.entity(named: relationship.destination), target.isKind(of: destination) else {
            throw file.fault(node, "\(entity.name).\(relationship.name): '\(text)' is not a \(relationship.destination)")
        }
        return ObjectID(entityIndex: target.index, primaryKey: pk)
    }

    /// Checks every reference and fills in the other side of each relationship, then the key
    /// counters: the larger of `counters` (by root entity name) and the largest ID in use.
    mutating func finish(counters: [String: Int64]) throws -> InMemoryState {
        for (owner, r, node, file) in toOnes {
            let entity = model.entities[Int(owner.entityIndex)]
            let target = state.rows[entity.rootIndex]?[owner.primaryKey]!.snapshot.toOne[r]
            try requireExists(target!, node: node, file: file, from: "\(entity.name).\(entity.relationships[r].name)")
            try fillOneToOneInverse(owner: owner, relationship: r, target: target!, node: node, file: file)
        }
        // Join lists first: the storing side of a many-to-many pair is set before the reading
        // side adds the members only it lists.
        for pass in 0..<2 {
            for (owner, r, members, file) in lists {
                guard let storage = layout.toMany[Int(owner.entityIndex)][r] else { continue }
                let isJoin: Bool = if case .join = storage { true } else { false }
                guard isJoin == (pass == 0) else { continue }
                let entity = model.entities[Int(owner.entityIndex)]
                let name = "\(entity.name).\(entity.relationships[r].name)"
                for member in members { try requireExists(member.id, node: member.node, file: file, from: name) }
                try apply(deduplicated(members), owner: owner, storage: storage, file: file, name: name)
            }
        }
        for entity in model.entities where entity.parentName == nil {
            let largest = state.rows[entity.index]?.keys.max() ?? 0
            let counter = max(counters[entity.name] ?? 0, largest)
            if counter > 0 { state.lastPrimaryKeys[entity.index] = counter }
        }
        return state
    }

    private mutating func apply(_ list: [(id: ObjectID, node: JSONDocument.Node)], owner: ObjectID, storage: ToManyStorage,
                                file: JSONStoreFileText, name: String) throws {
        let members = list.map(\.id)
        switch storage {
        case .join(let key):
            state.joins[key, default: [:]][owner] = members.isEmpty ? nil : members
        case .foreignKey(let destination, let inverse, let order):
            let root = model.entities[destination].rootIndex
            for (member, node) in list {
                let current = state.rows[root]![member.primaryKey]!.snapshot.toOne[inverse]
                if current == nil {
                    state.rows[root]![member.primaryKey]!.snapshot.toOne[inverse] = owner
                } else if current != owner {
                    let inverseName = model.entities[Int(member.entityIndex)].relationships[inverse].name
                    throw file.fault(node, "\(name) lists \(describe(member)), whose \(inverseName) is \(describe(current!))")
                }
            }
            if let order, !members.isEmpty { state.orders[order, default: [:]][owner] = members }
        case .reversedJoin(let key, let order):
            for member in members where state.joins[key]?[member]?.contains(owner) != true {
                state.joins[key, default: [:]][member, default: []].append(owner)
            }
            if let order, !members.isEmpty { state.orders[order, default: [:]][owner] = members }
        }
    }

    /// A one-to-one pair given from one side gets the other; two sides that disagree are an error.
    private mutating func fillOneToOneInverse(owner: ObjectID, relationship r: Int, target: ObjectID,
                                              node: JSONDocument.Node, file: JSONStoreFileText) throws {
        let entity = model.entities[Int(owner.entityIndex)]
        guard let inverse = model.inverseIndex(of: entity, relationship: r) else { return }
        let targetEntity = model.entities[Int(target.entityIndex)]
        guard !targetEntity.relationships[inverse].isToMany else { return }
        let root = targetEntity.rootIndex
        let current = state.rows[root]![target.primaryKey]!.snapshot.toOne[inverse]
        if current == nil {
            state.rows[root]![target.primaryKey]!.snapshot.toOne[inverse] = owner
        } else if current != owner {
            throw file.fault(node, "\(entity.name).\(entity.relationships[r].name) is \(describe(target)), whose "
                + "\(targetEntity.relationships[inverse].name) is \(describe(current!))")
        }
    }

    private func requireExists(_ id: ObjectID, node: JSONDocument.Node, file: JSONStoreFileText, from name: String) throws {
        let entity = model.entities[Int(id.entityIndex)]
        guard state.row(id, root: entity.rootIndex) != nil else {
            throw file.fault(node, "\(name) refers to \(describe(id)), which does not exist")
        }
    }

    private func describe(_ id: ObjectID) -> String { "\(model.entities[Int(id.entityIndex)].name).\(id.primaryKey)" }

    private func deduplicated(_ list: [(id: ObjectID, node: JSONDocument.Node)]) -> [(id: ObjectID, node: JSONDocument.Node)] {
        var seen = Set<ObjectID>()
        return list.filter { seen.insert($0.id).inserted }
    }
}
