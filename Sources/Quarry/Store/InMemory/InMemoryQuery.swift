/// A stored row as a predicate subject, so the in-memory store filters and sorts with the
/// same semantics as the SQL back end.
struct RowSubject: PredicateSubject {
    typealias ReadFailure = Never
    let state: InMemoryState
    let store: InMemoryStore
    let id: ObjectID
    let row: InMemoryRow?

    init(state: InMemoryState, store: InMemoryStore, id: ObjectID) {
        self.state = state
        self.store = store
        self.id = id
        self.row = state.row(id, root: store.model.entities[Int(id.entityIndex)].rootIndex)
    }

    func attributeValue(_ index: Int) -> Value {
        guard let row, index < row.snapshot.values.count else { return .null }
        return row.snapshot.values[index]
    }

    func toOne(_ r: Int) -> RowSubject? {
        guard let id = row?.snapshot.toOne[r] else { return nil }
        return RowSubject(state: state, store: store, id: id)
    }

    func toOneKey(_ r: Int) -> Int64? { row?.snapshot.toOne[r]?.primaryKey }

    func toMany(_ r: Int) -> [RowSubject] {
        members(r).map { RowSubject(state: state, store: store, id: $0) }
    }

    func toManyCount(_ r: Int) -> Int { members(r).count }

    private func members(_ r: Int) -> [ObjectID] {
        guard let storage = store.layout.toMany[Int(id.entityIndex)][r] else { return [] }
        return state.members(of: id, storage: storage, model: store.model)
    }
}

extension InMemoryStore {
    /// The IDs `request` selects with the values of `keyPaths`.
    public func keyedIDs(for request: StoreQuery, keyPaths: [String]) throws -> [(id: ObjectID, keys: [Value])] {
        let plans = try keyPaths.map { try KeyPathPlan($0, entity: request.entity, model: model) }
        let ids = try objectIDs(for: request)
        let snapshot = state.sync { $0 }
        return try ids.map { id in
            let subject = RowSubject(state: snapshot, store: self, id: id)
            return (id, try plans.map { try $0.values(of: subject).first ?? .null })
        }
    }

    /// Filters and sorts `ids` (primary-key order) for `query`, in memory.
    func apply(_ query: StoreQuery, to ids: [ObjectID], in state: InMemoryState) throws -> [ObjectID] {
        var ids = ids
        if let only = query.restrictedTo {
            let wanted = Set(only)
            ids = ids.filter(wanted.contains)
        }
        if let predicate = query.predicate {
            let test = try SubjectPredicate<RowSubject>.compileThrowing(predicate, entity: query.entity, model: model)
            ids = try ids.filter { try test(RowSubject(state: state, store: self, id: $0)) }
        }
        if !query.sortDescriptors.isEmpty {
            let sorter = try SubjectSorter<RowSubject>(query.sortDescriptors, entity: query.entity, model: model)
            ids = sorter.sort(ids) { RowSubject(state: state, store: self, id: $0) }
        }
        return ids
    }
}
