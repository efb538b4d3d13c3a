/// A key path resolved against the model: the relationships to follow and what to read at the end.
struct KeyPathPlan {
    enum Step {
        case toOne(Int)
        case toMany(Int)
    }
    enum Terminal {
        case attribute(Int)
        case relationship(Int)  // the destination's presence: compares as null / not null
        case count               // @count of the preceding to-many
    }

    let steps: [Step]
    let terminal: Terminal
    /// The entity at the end of the path (where the terminal is read).
    let finalEntity: EntityDescription
    /// The entities along the path, one per step (the source entity first).
    let entities: [EntityDescription]
    let crossesToMany: Bool
    var endsWithCount: Bool { if case .count = terminal { return true } else { return false } }

    init(_ path: String, entity: EntityDescription, model: ManagedObjectModel) throws {
        var parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy({ !$0.isEmpty }) else {
            throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "empty key")
        }
        let counting = parts.last == "@count"
        if counting { parts.removeLast() }
        guard !parts.isEmpty else {
            throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "@count must follow a to-many key")
        }
        var current = entity
        var steps: [Step] = []
        var entities = [entity]
        var terminal: Terminal?
        for (n, key) in parts.enumerated() {
            let isLast = n == parts.count - 1
            if let a = current.attributeIndex(key) {
                guard isLast, !counting else {
                    throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "'\(key)' is an attribute, not a relationship")
                }
                terminal = .attribute(a)
            } else if let r = current.relationshipIndex(key) {
                let relationship = current.relationships[r]
                if isLast && !relationship.isToMany && !counting {
                    terminal = .relationship(r)
                } else {
                    steps.append(relationship.isToMany ? .toMany(r) : .toOne(r))
                    current = model.destination(of: current, relationship: r)
                    entities.append(current)
                }
            } else {
                throw QueryError.unknownKey(entity: current.name, key: key)
            }
        }
        if counting {
            guard case .toMany? = steps.last else {
                throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "@count must follow a to-many key")
            }
            terminal = .count
        }
        self.steps = steps
        self.entities = entities
        self.finalEntity = current
        self.terminal = terminal ?? .relationship(-1)
        let toManySteps = steps.filter { if case .toMany = $0 { return true } else { return false } }.count
        guard toManySteps <= 1 else {
            throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "at most one to-many key per key path")
        }
        self.crossesToMany = toManySteps == 1
    }

    /// The value at the end of a path of to-one steps only, which cannot fail: a sort key's
    /// (``init(sortingBy:entity:model:)`` refuses paths through a to-many) or any path that
    /// crosses no to-many; `.null` when a to-one on the way is empty. No intermediate arrays.
    @inline(__always)
    func singleValue<S: PredicateSubject>(of subject: S) -> Value {
        assert(!crossesToMany && !endsWithCount, "a single-valued key path crosses no to-many")
        var node = subject
        for step in steps {
            guard case .toOne(let r) = step, let destination = node.toOne(r) else { return .null }
            node = destination
        }
        switch terminal {
        case .attribute(let a): return node.attributeValue(a)
        case .relationship(let r): return r < 0 ? .integer(1) : (node.toOneKey(r).map { .integer($0) } ?? .null)
        case .count: return .null
        }
    }

    /// The values at the end of the path for `subject` (one for a to-one path, several across
    /// a to-many; `@count` gives the count).
    func values<S: PredicateSubject>(of subject: S) throws(S.ReadFailure) -> [Value] {
        var frontier: [S] = [subject]
        var counted = 0
        for (n, step) in steps.enumerated() {
            var next: [S] = []
            for node in frontier {
                switch step {
                case .toOne(let r):
                    if let d = node.toOne(r) { next.append(d) }
                case .toMany(let r):
                    if case .count = terminal, n == steps.count - 1 { counted += try node.toManyCount(r); continue }
                    next += try node.toMany(r)
                }
            }
            frontier = next
        }
        switch terminal {
        case .count:
            return [.integer(Int64(counted))]
        case .attribute(let a):
            if frontier.isEmpty && !crossesToMany { return [.null] }
            return frontier.map { $0.attributeValue(a) }
        case .relationship(let r):
            if frontier.isEmpty && !crossesToMany { return [.null] }
            if r < 0 { return frontier.map { _ in .integer(1) } }
            return frontier.map { $0.toOneKey(r).map { .integer($0) } ?? .null }
        }
    }
}

/// What a predicate is evaluated against: a managed object, or a stored row.
protocol PredicateSubject {
    /// What reading a to-many can throw: `Never` for a stored row or snapshot (its contents are
    /// at hand), any error for a managed object (its contents may be read from the store).
    associatedtype ReadFailure: Error
    /// The value of attribute `index`.
    func attributeValue(_ index: Int) -> Value
    /// The destination of to-one `relationship`, if any.
    func toOne(_ relationship: Int) -> Self?
    /// The primary key of to-one `relationship`'s destination, if any.
    func toOneKey(_ relationship: Int) -> Int64?
    /// The destinations of to-many `relationship`.
    func toMany(_ relationship: Int) throws(ReadFailure) -> [Self]
    /// How many destinations to-many `relationship` has.
    func toManyCount(_ relationship: Int) throws(ReadFailure) -> Int
}

/// A managed object as a predicate subject (its current, possibly unsaved, state).
struct ObjectSubject: PredicateSubject {
    typealias ReadFailure = any Error
    let object: ManagedObject

    func attributeValue(_ index: Int) -> Value { object.primitiveValue(at: index) }

    func toOne(_ r: Int) -> ObjectSubject? {
        guard let id = toOneID(r), let context = object.managedObjectContext else { return nil }
        return ObjectSubject(object: context.object(with: id))
    }

    func toOneKey(_ r: Int) -> Int64? { toOneID(r)?.primaryKey }

    private func toOneID(_ r: Int) -> ObjectID? {
        object.fireFault()
        return r < object.toOne.count ? object.toOne[r] : nil
    }

    /// The destinations, read from the store when not in memory: a failed read throws (a
    /// predicate over the to-many then fails, instead of seeing it empty).
    func toMany(_ r: Int) throws -> [ObjectSubject] {
        guard let context = object.managedObjectContext else { return [] }
        return try context.toManyContents(of: object, relationship: r).map { ObjectSubject(object: context.object(with: $0)) }
    }

    func toManyCount(_ r: Int) throws -> Int {
        guard let context = object.managedObjectContext else { return 0 }
        return try context.toManyContents(of: object, relationship: r).count
    }
}

extension KeyPathPlan {
    /// The plan of a sort key's key path, which must read one value.
    /// - Throws: ``QueryError/invalidKeyPath(entity:keyPath:reason:)`` for an unknown key path
    ///   or one through a to-many relationship.
    init(sortingBy key: SortKey, entity: EntityDescription, model: ManagedObjectModel) throws {
        self = try KeyPathPlan(key.keyPath, entity: entity, model: model)
        guard !crossesToMany else {
            throw QueryError.invalidKeyPath(entity: entity.name, keyPath: key.keyPath, reason: "cannot sort by a to-many key")
        }
    }
}
