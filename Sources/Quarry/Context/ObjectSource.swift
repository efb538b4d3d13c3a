/// Where a context loads objects from: its coordinator (root contexts) or its parent context.
protocol ObjectSource: AnyObject, Sendable {
    /// The current state of each of `ids` as the source sees it (missing or deleted IDs left out).
    func sourceSnapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot]
    /// The current contents of a to-many relationship.
    func sourceRelatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID]
    /// The IDs a query selects, including the source's own pending changes.
    func sourceObjectIDs(for query: StoreQuery) throws -> [ObjectID]
    /// The permanent ID a temporary ID became, if the source saved it.
    func sourcePermanentID(for id: ObjectID) -> ObjectID?
}
