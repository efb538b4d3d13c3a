/// Sorts subjects by sort descriptors with the in-memory semantics (equal to SQL's order):
/// each key compared per ``SortKey/compare(_:_:)``, ties by object ID.
struct SubjectSorter<Subject: PredicateSubject> {
    let descriptors: [SortKey]
    let plans: [KeyPathPlan]

    init(_ descriptors: [SortKey], entity: EntityDescription, model: ManagedObjectModel) throws {
        self.descriptors = descriptors
        self.plans = try descriptors.map { try KeyPathPlan(sortingBy: $0, entity: entity, model: model) }
    }

    /// The sort key of one subject.
    func key(_ subject: Subject) -> [Value] { plans.map { $0.singleValue(of: subject) } }

    /// Whether key `a` (of `idA`) sorts before key `b` (of `idB`).
    func precedes(_ a: [Value], _ idA: ObjectID, _ b: [Value], _ idB: ObjectID) -> Bool {
        for (i, d) in descriptors.enumerated() {
            let c = d.compare(a[i], b[i])
            if c != 0 { return d.ascending ? c < 0 : c > 0 }
        }
        return idA < idB
    }

    /// `ids` sorted, each turned into a subject once to read its key.
    func sort(_ ids: [ObjectID], subject: (ObjectID) -> Subject) -> [ObjectID] {
        let keyed = ids.map { ($0, key(subject($0))) }
        return keyed.sorted { precedes($0.1, $0.0, $1.1, $1.0) }.map(\.0)
    }
}
