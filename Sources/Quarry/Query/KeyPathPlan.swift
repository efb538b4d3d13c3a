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
        /// `@sum`, `@avg`, `@min` or `@max` of an attribute of the preceding to-many's elements.
        case aggregate(CollectionOperator, attribute: Int)
    }

    /// The key path as written.
    let keyPath: String
    let steps: [Step]
    let terminal: Terminal
    /// The entity at the end of the path (where the terminal is read).
    let finalEntity: EntityDescription
    /// The entities along the path, one per step (the source entity first).
    let entities: [EntityDescription]
    let crossesToMany: Bool
    var endsWithCount: Bool { if case .count = terminal { return true } else { return false } }
    /// Whether the path ends in a collection operator (`@count`, `@sum`, `@avg`, `@min`,
    /// `@max`), which reads one value from the to-many before it.
    var endsWithCollectionOperator: Bool {
        switch terminal {
        case .count, .aggregate: return true
        case .attribute, .relationship: return false
        }
    }
    /// Whether the path reads one value per object: it crosses no to-many, or ends in a
    /// collection operator.
    var isSingleValued: Bool { !crossesToMany || endsWithCollectionOperator }

    /// - Throws: ``QueryError/unknownKey(entity:key:)`` for a key the entity lacks;
    ///   ``QueryError/invalidKeyPath(entity:keyPath:reason:)`` for a path that cannot be read
    ///   (a collection operator not after a to-many, `@sum` of a string, two to-many keys…).
    init(_ path: String, entity: EntityDescription, model: ManagedObjectModel) throws {
        // A composite's element is an attribute whose name holds a dot (`home.city`).
        if !entity.compositeAttributes.isEmpty, let a = entity.attributeIndex(path) {
            self.keyPath = path
            self.steps = []
            self.entities = [entity]
            self.finalEntity = entity
            self.terminal = .attribute(a)
            self.crossesToMany = false
            return
        }
        var parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy({ !$0.isEmpty }) else {
            throw QueryError.invalidKeyPath(entity: entity.name, keyPath: path, reason: "empty key")
        }
        func invalid(_ reason: String) -> QueryError { .invalidKeyPath(entity: entity.name, keyPath: path, reason: reason) }
        // A collection operator and what follows it: `@count`, or `@sum.attribute`.
        var summary: (op: CollectionOperator, attribute: String)?
        let counting = parts.last == "@count"
        if counting {
            parts.removeLast()
        } else if let at = parts.firstIndex(where: { $0.hasPrefix("@") }) {
            guard let op = CollectionOperator(rawValue: parts[at]) else {
                if parts[at] == "@count" { throw invalid("@count ends the key path") }
                throw invalid("unknown collection operator '\(parts[at])' (use @count, @sum, @avg, @min or @max)")
            }
            guard at == parts.count - 2 else {
                throw invalid(at == parts.count - 1
                    ? "\(op.rawValue) must be followed by an attribute of the to-many's elements, like tickers.\(op.rawValue).price"
                    : "\(op.rawValue) takes one attribute and ends the key path")
            }
            summary = (op, parts[at + 1])
            parts.removeLast(2)
        }
        let operatorName = counting ? "@count" : summary?.op.rawValue
        guard !parts.isEmpty else { throw invalid("\(operatorName ?? "@count") must follow a to-many key") }
        var current = entity
        var steps: [Step] = []
        var entities = [entity]
        var terminal: Terminal?
        let summarizing = operatorName != nil
        for (n, key) in parts.enumerated() {
            let isLast = n == parts.count - 1
            if let a = current.attributeIndex(key) {
                guard isLast, !summarizing else { throw invalid("'\(key)' is an attribute, not a relationship") }
                terminal = .attribute(a)
            } else if let r = current.relationshipIndex(key) {
                let relationship = current.relationships[r]
                if isLast && !relationship.isToMany && !summarizing {
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
        if let operatorName {
            guard case .toMany? = steps.last else { throw invalid("\(operatorName) must follow a to-many key") }
            terminal = .count
        }
        if let summary {
            guard let a = current.attributeIndex(summary.attribute) else {
                if current.relationshipIndex(summary.attribute) != nil {
                    throw invalid("\(summary.op.rawValue) needs an attribute; '\(summary.attribute)' is a relationship")
                }
                throw QueryError.unknownKey(entity: current.name, key: summary.attribute)
            }
            if let refusal = summary.op.refusal(of: current.attributes[a]) { throw invalid(refusal) }
            terminal = .aggregate(summary.op, attribute: a)
        }
        self.keyPath = path
        self.steps = steps
        self.entities = entities
        self.finalEntity = current
        self.terminal = terminal ?? .relationship(-1)
        let toManySteps = steps.filter { if case .toMany = $0 { return true } else { return false } }.count
        guard toManySteps <= 1 else { throw invalid("at most one to-many key per key path") }
        self.crossesToMany = toManySteps == 1
    }

    /// The value at the end of a path of to-one steps only, which cannot fail: a sort key's
    /// (``init(sortingBy:entity:model:)`` refuses paths through a to-many) or any path that
    /// crosses no to-many; `.null` when a to-one on the way is empty. No intermediate arrays.
    @inline(__always)
    func singleValue<S: PredicateSubject>(of subject: S) -> Value {
        assert(!crossesToMany, "a single-valued key path crosses no to-many")
        var node = subject
        for step in steps {
            guard case .toOne(let r) = step, let destination = node.toOne(r) else { return .null }
            node = destination
        }
        switch terminal {
        case .attribute(let a): return node.attributeValue(a)
        case .relationship(let r): return r < 0 ? .integer(1) : (node.toOneKey(r).map { .integer($0) } ?? .null)
        case .count, .aggregate: return .null
        }
    }

    /// The values at the end of the path for `subject` (one for a to-one path, several across
    /// a to-many; a collection operator gives its one value).
    /// - Throws: what reading a to-many throws (``PredicateSubject/ReadFailure``), or
    ///   ``QueryError/invalidOperand(_:)`` when an integer `@sum` leaves 64 bits.
    func values<S: PredicateSubject>(of subject: S) throws -> [Value] {
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
        case .aggregate(let op, let a):
            return [try op.summarize(frontier.map { $0.attributeValue(a) }, type: finalEntity.attributes[a].type, name: keyPath)]
        case .attribute(let a):
            if frontier.isEmpty && !crossesToMany { return [.null] }
            return frontier.map { $0.attributeValue(a) }
        case .relationship(let r):
            if frontier.isEmpty && !crossesToMany { return [.null] }
            if r < 0 { return frontier.map { _ in .integer(1) } }
            return frontier.map { $0.toOneKey(r).map { .integer($0) } ?? .null }
        }
    }

    /// The objects the path's relationship steps lead to from `subject` (the elements of a
    /// path that ends on a to-many, as a `SUBQUERY` filters them).
    /// - Throws: what reading a to-many throws.
    func destinations<S: PredicateSubject>(of subject: S) throws(S.ReadFailure) -> [S] {
        var frontier: [S] = [subject]
        for step in steps {
            var next: [S] = []
            for node in frontier {
                switch step {
                case .toOne(let r): if let d = node.toOne(r) { next.append(d) }
                case .toMany(let r): next += try node.toMany(r)
                }
            }
            frontier = next
        }
        return frontier
    }

    /// The type of the one value the path reads, when it ends at an attribute or a collection
    /// operator (`nil` for a relationship).
    var valueType: AttributeType? {
        switch terminal {
        case .attribute(let a): return finalEntity.attributes[a].type
        case .count: return .integer64
        case .aggregate(let op, let a): return op.resultType(over: finalEntity.attributes[a].type)
        case .relationship: return nil
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
            let reason = endsWithCollectionOperator ? "cannot sort by a collection operator (@count, @sum, @avg, @min, @max)" : "cannot sort by a to-many key"
            throw QueryError.invalidKeyPath(entity: entity.name, keyPath: key.keyPath, reason: reason)
        }
    }
}
