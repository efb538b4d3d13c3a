extension PersistentStack {
    /// Runs a batch update through the writer coordinator (see
    /// ``StoreCoordinator/execute(_:)-(BatchUpdateRequest)``): with
    /// ``BatchUpdateRequest/mergesChanges`` (the default) the main context merges it as it merges
    /// an importer's save (its objects refreshed, its fetched-results controllers told with
    /// ordinary diffs), on the main queue, right after the commit.
    /// - Throws: ``BatchRequestError``, ``QueryError``, ``StoreError``.
    @discardableResult
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        try writerCoordinator.execute(request)
    }

    /// Runs a batch delete through the writer coordinator (see
    /// ``StoreCoordinator/execute(_:)-(BatchDeleteRequest)``), merged into the main context like
    /// ``execute(_:)-(BatchUpdateRequest)``.
    /// - Throws: ``BatchRequestError``, ``QueryError``, ``StoreError``.
    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        try writerCoordinator.execute(request)
    }
}

extension PersistentStack {
    /// Runs a batch insert through the writer coordinator (see
    /// ``StoreCoordinator/execute(_:)-(BatchInsertRequest)``), merged into the main context like
    /// ``execute(_:)-(BatchUpdateRequest)`` unless ``BatchInsertRequest/mergesChanges`` is off.
    /// - Throws: ``BatchInsertError``, ``BatchRequestError``, ``StoreError``.
    @discardableResult
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        try writerCoordinator.execute(request)
    }
}

extension PersistentStack {
    /// Runs a batch insert whose rows come from a sequence, a run at a time (see
    /// ``StoreCoordinator/execute(_:rows:)``), merged into the main context like
    /// ``execute(_:)-(BatchInsertRequest)`` unless ``BatchInsertRequest/mergesChanges`` is off.
    /// - Throws: ``BatchInsertError``, ``StoreError``.
    @discardableResult
    public func execute<Rows: Sequence>(_ request: BatchInsertRequest, rows: Rows) throws -> BatchResult
    where Rows.Element == BatchInsertRow {
        try writerCoordinator.execute(request, rows: rows)
    }
}
