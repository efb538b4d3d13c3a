/// A key path that is one to-one step and an attribute of its destination (`sector.name`): an
/// object's value is its destination's attribute, so it can be read as the destination's key
/// and named afterwards, without joining every object to its destination. Grouped fetches
/// group by the key (``DictionaryFetch/groupKeyHops``); live aggregates keep the destinations'
/// values (``AggregateResultsController/relatedValues``).
struct ToOneHop {
    /// The to-one relationship's index in the key path's source entity.
    let relationship: Int
    /// Its name, the key path that reads the destination's key (`sector`).
    let relationshipName: String
    /// The destination entity.
    let destination: EntityDescription
    /// The attribute read on the destination (`name`).
    let attribute: String

    /// The hop of `plan`, if it is one to-one step then an attribute.
    init?(_ plan: KeyPathPlan) {
        guard plan.steps.count == 1, case .toOne(let r) = plan.steps[0], case .attribute(let a) = plan.terminal else { return nil }
        relationship = r
        relationshipName = plan.entities[0].relationships[r].name
        destination = plan.finalEntity
        attribute = plan.finalEntity.attributes[a].name
    }

    /// The attribute's value for each of `destinations`, in one query restricted to them; a
    /// destination the store does not hold reads as `nil`, as a join gives.
    func values(of destinations: some Collection<ObjectID>, in store: any PersistentStore) throws -> [ObjectID: Value] {
        var query = StoreQuery(entity: destination)
        query.restrictedTo = Array(destinations)
        var found: [ObjectID: Value] = [:]
        try store.forEachKeyedRow(for: query, keyPaths: [attribute]) { row in found[row.objectID] = row.value(ofKey: 0) }
        for d in destinations where found[d] == nil { found[d] = .null }
        return found
    }
}
