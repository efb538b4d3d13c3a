import Synchronization

/// Names the store state a context reads (Core Data's `NSQueryGenerationToken`).
///
/// Pass ``current`` to ``ObjectContext/setQueryGeneration(from:)`` to pin a context to the
/// store as it is at that moment; ``ObjectContext/queryGenerationToken`` names the pin.
public struct QueryGenerationToken: Sendable, Hashable, CustomStringConvertible {
    let serial: UInt64

    /// The store's state at the moment the token is used.
    public static let current = QueryGenerationToken(serial: 0)

    private static let counter = Atomic<UInt64>(0)

    /// A token for a new pin.
    static func next() -> QueryGenerationToken {
        QueryGenerationToken(serial: counter.add(1, ordering: .relaxed).newValue)
    }

    public var description: String { serial == 0 ? "current" : "generation \(serial)" }
}

/// A context's pin: its token and the read-only store pinned to that moment, behind a
/// coordinator the context reads through.
struct QueryGeneration {
    let token: QueryGenerationToken
    let source: StoreCoordinator
}

extension ObjectContext {
    /// Where the context reads: the pinned generation's store while one is set, else its source.
    var readSource: ObjectSource { generation?.source ?? source }
    /// The store the context's counts and dictionary fetches read: the pinned one while pinned.
    var readStore: any PersistentStore { generation?.source.store ?? coordinator.store }

    /// The query generation the context reads (`nil`: unpinned, every read sees the latest
    /// committed state).
    public var queryGenerationToken: QueryGenerationToken? { generation?.token }

    /// Pins the context to the store's state now (``QueryGenerationToken/current``), or unpins
    /// it (`nil`). While pinned, its fetches, counts, faults and relationship reads see that
    /// state, whatever other contexts and processes save since; objects already loaded keep
    /// their values (refresh them to read the pinned state). The context advances to a new pin
    /// by itself when it saves, merges another save, refreshes all objects or is reset, as in
    /// Core Data; the previous pin is released then (SQLite: its read transaction ends).
    ///
    /// Only root contexts over a store that can pin (``QueryGenerationStore``: SQLite,
    /// PostgreSQL, in-memory, JSON) can be pinned; fetched-results and aggregate controllers on
    /// a pinned context read the pinned state too.
    /// - Throws: ``QuarryError/refused(_:)`` for a child context, a store that cannot pin, or a
    ///   token other than `.current` and the context's own; the store's error if the pin fails.
    public func setQueryGeneration(from token: QueryGenerationToken?) throws {
        checkQueue()
        guard let token else {
            generation = nil
            return
        }
        if token == generation?.token { return }
        guard token == .current else {
            throw QuarryError.refused("query generation \(token) is not this context's; pin with .current")
        }
        guard parent == nil else {
            throw QuarryError.refused("a child context reads through its parent: pin the parent's query generation instead")
        }
        guard let store = coordinator.store as? any QueryGenerationStore else {
            throw QuarryError.refused("this store cannot pin a query generation (SQLite, PostgreSQL, in-memory and JSON stores can)")
        }
        let pinned = try store.pinnedGeneration()
        generation = QueryGeneration(token: .next(), source: StoreCoordinator(store: pinned, name: "\(name ?? "context") generation"))
    }

    /// Moves a pinned context to a new pin at the store's current state (its own save, a
    /// merge, a refresh of everything, a reset).
    func advanceQueryGeneration() {
        guard generation != nil else { return }
        do {
            try setQueryGeneration(from: .current)
        } catch {
            // The old pin stays (the context keeps reading one consistent state) and the
            // failure is kept where the caller can see it.
            lastReadError = ContextReadError("advancing the query generation", objectIDs: [], error: error)
        }
    }
}
