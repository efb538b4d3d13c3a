import Foundation
import Quarry
import Synchronization

/// Typed classes for ``TestModels/tickers()``.
public final class Sector: ManagedObject {
    /// The sector's unique name.
    @Attribute("name") public var name: String
    /// The sector's tickers.
    @ToMany("tickers") public var tickers: Set<Ticker>
}

/// A stock ticker.
public final class Ticker: ManagedObject {
    /// The ticker symbol.
    @Attribute("symbol") public var symbol: String
    /// The company name.
    @Attribute("name") public var name: String?
    /// The last price.
    @Attribute("price") public var price: Double
    /// Shares traded.
    @Attribute("volume") public var volume: Int64
    /// Whether the ticker trades.
    @Attribute("active") public var active: Bool
    /// When it was listed.
    @Attribute("listed") public var listed: Date?
    /// A transient note.
    @Attribute("note") public var note: String?
    /// The ticker's sector.
    @ToOne("sector") public var sector: Sector?
    /// The ticker's tags.
    @ToMany("tags") public var tags: Set<TickerTag>
}

/// A price quote.
public final class Quote: ManagedObject {
    /// The quoted price.
    @Attribute("price") public var price: Double
    /// When.
    @Attribute("time") public var time: Date
    /// The quoted ticker.
    @ToOne("ticker") public var ticker: Ticker?
}

/// A label for tickers (many-to-many).
public final class TickerTag: ManagedObject {
    override public class var entityName: String { "Tag" }
    /// The label.
    @Attribute("label") public var label: String
    /// The tagged tickers.
    @ToMany("tickers") public var tickers: Set<Ticker>
}

/// A person owning portfolios (deny rule).
public final class Person: ManagedObject {
    /// The name.
    @Attribute("name") public var name: String
}

/// A portfolio with an ordered list of holdings.
public final class Portfolio: ManagedObject {
    /// The title.
    @Attribute("title") public var title: String?
    /// The owner.
    @ToOne("owner") public var owner: Person?
    /// The holdings, in order.
    @OrderedToMany("holdings") public var holdings: [Ticker]
}

/// Builds coordinators over fresh stores for tests.
public enum TestStores {
    /// A coordinator over a new in-memory store.
    public static func memory(_ model: ManagedObjectModel = TestModels.tickers()) -> StoreCoordinator {
        StoreCoordinator(store: InMemoryStore(model: model), name: "memory")
    }
}

/// Which store a parameterised test runs against.
public enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// ``InMemoryStore``.
    case memory
    /// ``SQLiteStore`` in a temporary file.
    case sqlite
    /// ``JSONStore`` in a temporary folder (one instance shared by every coordinator).
    case json
    /// `PostgreSQLStore` in a fresh schema of the test server (a new store instance, with its
    /// own connections, per coordinator).
    case postgreSQL

    public var description: String { rawValue }

    /// Every kind this run can test: PostgreSQL only in a build with the `PostgreSQL` trait and
    /// with a test server (`QUARRY_TEST_POSTGRES_URL`), so suites parameterised over
    /// `allCases` run on it wherever it exists and never fail for want of it.
    public static var allCases: [StoreKind] {
        var kinds: [StoreKind] = [.memory, .sqlite, .json]
        if PostgreSQLTestServer.isAvailable { kinds.append(.postgreSQL) }
        return kinds
    }
}

/// One store for a test, from which any number of coordinators can be opened (each SQLite
/// coordinator gets its own connections on the same file).
public final class TestStore: @unchecked Sendable {
    // Immutable after init.
    /// The store kind.
    public let kind: StoreKind
    /// The model.
    public let model: ManagedObjectModel
    /// The temporary folder holding an SQLite file or a JSON store folder.
    public let directory = TemporaryDirectory()
    private let memory: InMemoryStore
    /// The JSON store, opened by the first coordinator (the lock guards the lazy open).
    private let jsonStore = Mutex<TemporaryJSONStore?>(nil)
    /// For ``StoreKind/postgreSQL``: the store's URL on the test server, a schema of its own.
    public let postgreSQLURL: String?
    /// The schema, dropped when the last coordinator's store and this test store are gone.
    private let schema: TemporaryPostgreSQLSchema?

    /// Creates an empty store of `kind` (``StoreKind/postgreSQL``: in a fresh schema of the test
    /// server, `nil` URL without one, so ``coordinator(_:)`` says why it cannot open).
    public init(_ kind: StoreKind, model: ManagedObjectModel = TestModels.tickers()) {
        self.kind = kind
        self.model = model
        self.memory = InMemoryStore(model: model)
        self.postgreSQLURL = kind == .postgreSQL ? PostgreSQLTestServer.freshStoreURL(label: "teststore") : nil
        self.schema = postgreSQLURL.flatMap { try? TemporaryPostgreSQLSchema(url: PostgreSQLStoreURL(parsing: $0)) }
    }

    /// The SQLite file's URL (for ``StoreKind/json``: the store folder's URL; for
    /// ``StoreKind/postgreSQL``: the `postgres://` URL, no file).
    public var url: URL {
        if let postgreSQLURL, let url = URL(string: postgreSQLURL) { return url }
        return directory.file(kind == .json ? "test.jsonstore" : "test.sqlite")
    }

    /// A new coordinator over the store.
    public func coordinator(_ name: String = "test") throws -> StoreCoordinator {
        switch kind {
        case .memory: return StoreCoordinator(store: memory, name: name)
        case .sqlite: return StoreCoordinator(store: try SQLiteStore(url: url, model: model), name: name)
        case .json:
            let store = try jsonStore.withLock { store in
                if let store { return store }
                let opened = TemporaryJSONStore(base: try JSONStore(url: url, model: model), directory: directory)
                store = opened
                return opened
            }
            return StoreCoordinator(store: store, name: name)
        case .postgreSQL:
            guard let schema else { throw StoreError.cannotOpen(path: "postgres://", reason: PostgreSQLTestServer.skipReason) }
            return StoreCoordinator(store: try TemporaryPostgreSQLStore(schema: schema, model: model), name: name)
        }
    }

    /// A new private-queue root context over a new coordinator.
    public func context(_ name: String = "test", policy: MergePolicy = .error) throws -> ObjectContext {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: try coordinator(name), name: name)
        context.mergePolicy = policy
        return context
    }
}

extension ManagedObjectModel {
    /// Binds every class of ``TestModels/tickers()`` to its entity, for tests that reach
    /// objects through relationships before any typed insert or fetch has bound their class
    /// (fixtures loaded from files).
    public func registerTickerClasses() {
        let classes: [(ManagedObject.Type, String)] = [
            (Sector.self, "Sector"), (Ticker.self, "Ticker"), (Quote.self, "Quote"), (TickerTag.self, "Tag"),
            (Person.self, "Person"), (Portfolio.self, "Portfolio"),
        ]
        for (type, name) in classes { register(type, for: name) }
    }
}

/// A ``JSONStore`` that keeps its temporary folder alive while any coordinator uses it: a test
/// may drop its ``TestStore`` and keep a context (an SQLite file outlives its removal through
/// open connections; a JSON store reads its folder on every save).
public final class TemporaryJSONStore: ForwardingStore {
    /// The store.
    public let base: JSONStore
    /// The folder holding it.
    public let directory: TemporaryDirectory

    init(base: JSONStore, directory: TemporaryDirectory) {
        self.base = base
        self.directory = directory
    }
}

extension TemporaryJSONStore: QueryGenerationStore {
    /// The JSON store's pinned generation (see ``JSONStore/pinnedGeneration()``).
    public func pinnedGeneration() throws -> any PersistentStore { try base.pinnedGeneration() }
}
