import Foundation

extension BatchUpdateRequest {
    /// Applies the request's assignments to `objects` in their context, as ordinary changes:
    /// the context saves them (with its validation, merge policy and lifecycle hooks) and its
    /// undo manager can undo them, where ``StoreCoordinator/execute(_:)-(BatchUpdateRequest)``
    /// writes the store directly. The request's predicate is not consulted: `objects` are the
    /// ones updated (objects of other entities are refused).
    ///
    /// Each expression reads the object as it was before this call (`a = b, b = a` swaps), and
    /// each new value is converted to its attribute's type and checked against the model's
    /// rules first: when one fails, no object is changed.
    ///
    /// ```swift
    /// let request = try BatchUpdateRequest(entityName: "Ticker", setting: "price = price * 2")
    /// try request.apply(to: selected)   // then context.save(), or undo
    /// ```
    /// - Throws: ``BatchRequestError`` (a bad key or expression, a value a rule refuses, an
    ///   object of another entity), or the error of an object that cannot be read, with nothing
    ///   changed.
    public func apply(to objects: [ManagedObject]) throws {
        guard let context = objects.first?.managedObjectContext else { return }
        let plan = try BatchUpdatePlan(self, model: context.model)
        let entity = plan.query.entity
        let entityIndices = Set(includesSubentities ? entity.selfAndDescendantIndices : [entity.index])
        let now = Date()
        var failures = BatchFailures()
        var computed: [(ManagedObject, [Value?])] = []
        computed.reserveCapacity(objects.count)
        let readKeys = Set(plan.assignments.flatMap { $0.value.keys })
        for object in objects {
            let id = object.objectID
            guard entityIndices.contains(Int(id.entityIndex)), object.managedObjectContext === context else {
                throw BatchRequestError.invalidKey(entity: entity.name, key: "(objects)",
                                                   reason: "names \(object.entity.name) \(id), not an object of this entity in one context")
            }
            // The keys the expressions read, as the object is before any is set (a fault that
            // cannot be fulfilled throws here, before anything changed).
            var current: [String: Value] = [:]
            for key in readKeys { current[key] = try object.value(forKey: key) }
            var values: [Value?] = []
            for (attribute, expression) in plan.assignments {
                values.append(plan.value(of: expression, for: attribute, id: id, now: now, failures: &failures) { current[$0] ?? .null })
            }
            computed.append((object, values))
        }
        try failures.throwFirst()
        for (object, values) in computed {
            for ((attribute, _), value) in zip(plan.assignments, values) {
                guard let value else { continue }
                try object.setValue(value, forKey: attribute.name)
            }
        }
    }
}
