import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Query generations: a context pinned to one moment of the store")
struct QueryGenerationTests {
    /// A ticker `symbol` at `price`, saved by a context of its own coordinator.
    func save(_ store: TestStore, _ name: String, _ body: @escaping (ObjectContext) throws -> Void) throws {
        let context = try store.context(name)
        try context.performAndWait {
            try body(context)
            try context.save()
        }
    }

    static func ticker(_ symbol: String, in context: ObjectContext) throws -> Ticker {
        let found = try context.fetch(FetchRequest(entityName: "Ticker", predicate: PredicateKey("symbol") == .string(symbol)), as: Ticker.self)
        return try #require(found.first)
    }

    func tickers(_ context: ObjectContext) throws -> [String: Double] {
        try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest(entityName: "Ticker"), as: Ticker.self).map { ($0.symbol, $0.price) })
        }
    }

    @Test("a pinned context reads the pinned state while others save; unpinned, it reads theirs", arguments: StoreKind.allCases)
    func pinned(kind: StoreKind) throws {
        let store = TestStore(kind)
        try save(store, "seed") { c in let t = try c.insert(Ticker.self); t.symbol = "OLD"; t.price = 1 }
        let reader = try store.context("reader")
        try reader.performAndWait {
            #expect(reader.queryGenerationToken == nil)
            try reader.setQueryGeneration(from: .current)
            #expect(reader.queryGenerationToken != nil && reader.queryGenerationToken != .current)
        }
        // Other saves, while the reader is pinned (on SQLite its read transaction stays open).
        try save(store, "writer") { c in
            try Self.ticker("OLD", in: c).price = 2
            let t = try c.insert(Ticker.self); t.symbol = "NEW"; t.price = 3
        }
        try save(store, "writer2") { c in try Self.ticker("NEW", in: c).price = 4 }
        #expect(try tickers(reader) == ["OLD": 1])
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Ticker") } == 1)
        try reader.performAndWait {
            try reader.setQueryGeneration(from: nil)
            reader.reset()
        }
        #expect(try tickers(reader) == ["OLD": 2, "NEW": 4])
    }

    @Test("a pinned context advances by itself when it saves, merges or is reset", arguments: StoreKind.allCases)
    func advances(kind: StoreKind) throws {
        let store = TestStore(kind)
        try save(store, "seed") { c in let t = try c.insert(Ticker.self); t.symbol = "A"; t.price = 1 }
        let reader = try store.context("reader")
        let first = try reader.performAndWait { () -> QueryGenerationToken? in
            try reader.setQueryGeneration(from: .current)
            return reader.queryGenerationToken
        }
        try save(store, "writer") { c in let t = try c.insert(Ticker.self); t.symbol = "B" }
        #expect(try tickers(reader).keys.sorted() == ["A"])
        try reader.performAndWait {
            let t = try reader.insert(Ticker.self); t.symbol = "C"
            try reader.save()
            #expect(reader.queryGenerationToken != first && reader.queryGenerationToken != nil)
        }
        #expect(try tickers(reader).keys.sorted() == ["A", "B", "C"])
        let second = reader.performAndWait { reader.queryGenerationToken }
        try save(store, "writer2") { c in let t = try c.insert(Ticker.self); t.symbol = "D" }
        #expect(try tickers(reader).keys.sorted() == ["A", "B", "C"])
        reader.performAndWait { reader.reset() }
        #expect(reader.performAndWait { reader.queryGenerationToken } != second)
        #expect(try tickers(reader).keys.sorted() == ["A", "B", "C", "D"])
    }

    @Test("a fetched-results controller on a pinned context reads the pinned state", arguments: [StoreKind.sqlite, .memory])
    func controller(kind: StoreKind) throws {
        let store = TestStore(kind)
        try save(store, "seed") { c in let t = try c.insert(Ticker.self); t.symbol = "A" }
        let reader = try store.context("reader")
        try reader.performAndWait { try reader.setQueryGeneration(from: .current) }
        try save(store, "writer") { c in let t = try c.insert(Ticker.self); t.symbol = "B" }
        try reader.performAndWait {
            let controller = try FetchedResultsController(
                fetchRequest: FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")]), context: reader)
            try controller.performFetch()
            #expect(controller.count == 1)
            try reader.setQueryGeneration(from: nil)
            try controller.performFetch()
            #expect(controller.count == 2)
        }
    }

    @Test("a child context, a store that cannot pin and another context's token are refused")
    func refusals() throws {
        let store = TestStore(.sqlite)
        let root = try store.context("root")
        let other = try store.context("other")
        let token = try other.performAndWait { () -> QueryGenerationToken? in
            try other.setQueryGeneration(from: .current)
            return other.queryGenerationToken
        }
        try root.performAndWait {
            #expect(throws: QuarryError.self) { try root.setQueryGeneration(from: token) }
        }
        let child = ObjectContext(concurrencyType: .privateQueue, parent: root, name: "child")
        child.performAndWait {
            #expect(throws: QuarryError.self) { try child.setQueryGeneration(from: .current) }
        }
        let forwarding = ObjectContext(concurrencyType: .privateQueue,
                                       coordinator: StoreCoordinator(store: UnpinnableStore(base: InMemoryStore(model: TestModels.tickers()))))
        forwarding.performAndWait {
            #expect(throws: QuarryError.self) { try forwarding.setQueryGeneration(from: .current) }
        }
    }
}

/// A store that does not pin query generations (a wrapper that does not forward the ability).
private final class UnpinnableStore: ForwardingStore {
    let base: InMemoryStore
    init(base: InMemoryStore) { self.base = base }
}
