/// A ``PredicateSubquery`` resolved against the model, for every back end: the to-many whose
/// elements are filtered, their entity, and what is read from those that pass.
struct SubqueryPlan {
    let subquery: PredicateSubquery
    /// The collection's key path: to-one steps, then the to-many (its last step).
    let collection: KeyPathPlan
    /// The entity of the elements (where the inner predicate is evaluated).
    let element: EntityDescription
    /// The collection operator and attribute read from the passing elements; `nil` for `@count`.
    let aggregate: (op: CollectionOperator, attribute: Int)?

    /// - Throws: ``QueryError/invalidKeyPath(entity:keyPath:reason:)`` when the collection is
    ///   not a to-many key path or the aggregated attribute does not fit its operator;
    ///   ``QueryError/unknownKey(entity:key:)`` for a key the model lacks.
    init(_ subquery: PredicateSubquery, entity: EntityDescription, model: ManagedObjectModel) throws {
        let collection = try KeyPathPlan(subquery.collection, entity: entity, model: model)
        guard case .toMany? = collection.steps.last, case .relationship(-1) = collection.terminal else {
            let what: String
            switch collection.terminal {
            case .attribute: what = "an attribute"
            case .relationship: what = "a to-one relationship"
            case .count, .aggregate: what = "one value"
            }
            throw QueryError.invalidKeyPath(entity: entity.name, keyPath: subquery.collection,
                                            reason: "SUBQUERY needs a to-many key path, and this is \(what)")
        }
        self.subquery = subquery
        self.collection = collection
        self.element = collection.finalEntity
        switch subquery.operation {
        case .count:
            aggregate = nil
        case .aggregate(let op, let name):
            let path = "SUBQUERY(…).\(op.rawValue).\(name)"
            guard let a = element.attributeIndex(name) else {
                if element.relationshipIndex(name) != nil {
                    throw QueryError.invalidKeyPath(entity: element.name, keyPath: path, reason: "\(op.rawValue) needs an attribute; '\(name)' is a relationship")
                }
                throw QueryError.unknownKey(entity: element.name, key: name)
            }
            if let refusal = op.refusal(of: element.attributes[a]) {
                throw QueryError.invalidKeyPath(entity: element.name, keyPath: path, reason: refusal)
            }
            aggregate = (op, a)
        }
    }

    /// The type of the subquery's value (an integer for `@count`).
    var valueType: AttributeType {
        guard let aggregate else { return .integer64 }
        return aggregate.op.resultType(over: element.attributes[aggregate.attribute].type)
    }

    /// The subquery's value for `subject`: how many of its elements pass `test`, or the
    /// collection operator over their attribute.
    /// - Throws: what reading the to-many or `test` throws, or an integer `@sum` beyond 64 bits.
    func value<S: PredicateSubject>(of subject: S, passing test: (S) throws -> Bool) throws -> Value {
        let passing = try collection.destinations(of: subject).filter(test)
        guard let aggregate else { return .integer(Int64(passing.count)) }
        let type = element.attributes[aggregate.attribute].type
        return try aggregate.op.summarize(passing.map { $0.attributeValue(aggregate.attribute) }, type: type,
                                          name: PredicateFormatter.format(.subquery(subquery)))
    }
}
