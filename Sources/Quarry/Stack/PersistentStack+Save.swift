extension PersistentStack {
    /// Saves the main context to the store, on the main queue (M3's manager `save:`).
    ///
    /// Waits for the main queue: call it from the main thread, or from another thread while the
    /// main queue runs. A main context made read-only (``isMainContextReadOnly``) saves nothing.
    /// - Throws: whatever ``ObjectContext/save()`` throws (validation, conflicts, store errors).
    public func save() throws {
        let context = mainContext
        try context.performAndWait { _ = try context.save() }
    }
}
