/// One recorded change of a context's object graph: what an undo puts back.
///
/// Steps are recorded *before* the change they describe (attributes, to-ones, orders) or right
/// after it (to-many memberships, appearances), in the order the changes happen; undoing a
/// group applies the inverse of its steps in reverse order. Relationship sides are recorded
/// separately (setting a to-one records it and the inverse's membership), so replaying a step
/// never maintains an inverse itself.
///
/// Subjects are held as instances (an object keeps its instance across saves, and a deleted
/// object brought back by an undo keeps it too); relationship targets are held as IDs and
/// resolved through ``ContextUndoManager``'s renames (temporary IDs made permanent by a save,
/// deleted objects inserted again under new IDs).
enum UndoStep {
    /// Attribute `index` of `object` held `old`.
    case attribute(ManagedObject, index: Int, old: Value)
    /// To-one relationship `relationship` of `object` pointed to `old`.
    case toOne(ManagedObject, relationship: Int, old: ObjectID?)
    /// `member` was added to to-many `relationship` of `object`.
    case added(ManagedObject, relationship: Int, member: ObjectID)
    /// `member` was removed from to-many `relationship` of `object`, from position `index`
    /// (ordered relationships whose contents were loaded).
    case removed(ManagedObject, relationship: Int, member: ObjectID, index: Int?)
    /// Ordered to-many `relationship` of `object` had the members in the order `old`.
    case reordered(ManagedObject, relationship: Int, old: [ObjectID])
    /// `object` was inserted (or brought back): its inverse takes it out of the graph.
    case appeared(ManagedObject)
    /// `object` was deleted (or taken out): its inverse brings it back with its values.
    case vanished(ManagedObject)

    /// The object the step changed.
    var subject: ManagedObject {
        switch self {
        case .attribute(let o, _, _), .toOne(let o, _, _), .added(let o, _, _), .removed(let o, _, _, _),
             .reordered(let o, _, _), .appeared(let o), .vanished(let o):
            return o
        }
    }
}

/// What a group expects one object to hold when the group is undone (or redone): the values
/// it left, for the properties it touched. A property another writer saved differently since
/// makes the undo refuse (``UndoRefusal``).
struct UndoExpectation {
    /// The object.
    let object: ManagedObject
    /// The object's attribute values when the group closed.
    var values: [Value]
    /// The object's to-one destinations when the group closed.
    var toOne: [ObjectID?]
    /// The properties (attribute indices, then relationship indices after the attributes) the
    /// group changed; `nil` for every stored property and to-one (the group inserted or
    /// restored the object).
    var touched: PropertyMask?
}

/// A group of changes undone and redone as one: the changes of one `perform` block (or one
/// event of the context's queue), or of an explicit ``ContextUndoManager/beginUndoGrouping()``
/// … ``ContextUndoManager/endUndoGrouping()``.
struct UndoGroup {
    /// The action's name (for example "Edit Price"); empty when unnamed.
    var name = ""
    /// The steps, in the order they were recorded.
    var steps: [UndoStep] = []
    /// Per object (by identity) whose properties the group changed, what the group left;
    /// filled when the group closes.
    var expectations: [ObjectIdentifier: UndoExpectation] = [:]
    /// The objects the group inserted or brought back, with every value they held when the
    /// group closed (a list, not a table: an import recorded for undo hashes nothing here).
    var appearedExpectations: [UndoExpectation] = []

    /// Records what each object the group changed holds now (the group is closing). Objects
    /// the group inserted or brought back expect every stored property; a deleted one is not
    /// checked (an undo brings it back whatever the store holds).
    mutating func captureExpectations() {
        for step in steps {
            let o = step.subject
            let a = o.entity.attributes.count
            let property: Int
            switch step {
            case .attribute(_, let i, _): property = i
            case .toOne(_, let r, _), .added(_, let r, _), .removed(_, let r, _, _), .reordered(_, let r, _): property = a + r
            case .appeared:
                // A deleted object is not checked; an unloaded one has nothing to compare.
                if o.faulted || o.deleted || o.values.isEmpty || o.managedObjectContext == nil { continue }
                appearedExpectations.append(UndoExpectation(object: o, values: o.values, toOne: o.toOne, touched: nil))
                continue
            case .vanished: continue
            }
            let key = ObjectIdentifier(o)
            if expectations[key] != nil {
                expectations[key]!.touched?.insert(property)
                continue
            }
            if o.faulted || o.deleted || o.values.isEmpty || o.managedObjectContext == nil { continue }
            var mask = PropertyMask()
            mask.insert(property)
            expectations[key] = UndoExpectation(object: o, values: o.values, toOne: o.toOne, touched: mask)
        }
    }
}

extension EntityDescription {
    /// The properties an undo checks on an object a group inserted: every stored attribute and
    /// every to-one (to-many contents are not compared with the store).
    var everyPropertyMask: PropertyMask {
        var mask = PropertyMask()
        for i in storedAttributeIndices { mask.insert(i) }
        for (r, relationship) in relationships.enumerated() where !relationship.isToMany { mask.insert(attributes.count + r) }
        return mask
    }
}
