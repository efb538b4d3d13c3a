extension ObjectsDidChange {
    /// IDs a merged save inserted.
    @available(*, deprecated, message: "use mergedInserted.ids")
    public var mergedInsertedIDs: [ObjectID] { mergedInserted.ids }
    /// IDs a merged save updated that are not registered here.
    @available(*, deprecated, message: "use mergedUpdated.ids")
    public var mergedUpdatedIDs: [ObjectID] { mergedUpdated.ids }
    /// The state the merged save stored for each inserted object, or empty.
    @available(*, deprecated, message: "use mergedInserted.snapshots")
    public var mergedInsertedSnapshots: [Snapshot] { mergedInserted.snapshots }
    /// The state the merged save stored for each updated object that is not registered here, or empty.
    @available(*, deprecated, message: "use mergedUpdated.snapshots")
    public var mergedUpdatedSnapshots: [Snapshot] { mergedUpdated.snapshots }
}
