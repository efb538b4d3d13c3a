extension PostgreSQLStore: QueryGenerationStore {
    /// A read-only store over this database as it is now: one pooled connection holds a
    /// `REPEATABLE READ` transaction (`PostgreSQLPinnedRead`) that every read of the returned
    /// store goes through, while other connections and hosts keep saving. Released when the
    /// returned store is.
    public func pinnedGeneration() throws -> any PersistentStore {
        PostgreSQLStore(copying: self, pinned: try PostgreSQLPinnedRead(pool: pool))
    }
}
