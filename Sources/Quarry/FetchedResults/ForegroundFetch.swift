extension ObjectContext {
    /// For a controller's background fetch: when it cannot run off this queue — a child
    /// context, pending changes (the fetch must include them), or a store whose queries cannot
    /// be cancelled (it answers from memory) — runs `fetch` at once, after checking
    /// `cancellation`, and calls `completion` with the outcome; returns whether it did.
    func runsFetchAtOnce(cancellation: QueryCancellation, completion: @Sendable (Error?) -> Void, _ fetch: () throws -> Void) -> Bool {
        guard parent != nil || hasChanges || !readStore.cancelsQueries else { return false }
        do {
            try cancellation.checkCancelled()
            try fetch()
            completion(nil)
        } catch {
            completion(error)
        }
        return true
    }
}
