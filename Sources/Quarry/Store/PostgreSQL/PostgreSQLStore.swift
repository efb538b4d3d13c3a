import Foundation
import Synchronization

/// The PostgreSQL persistent store: the SQLite store's layout and semantics in one PostgreSQL
/// schema, so several machines can share one object graph.
///
/// One table per root entity (`"Z_PK" bigint`, `"Z_ENT"`, `"Z_OPT"`, then the columns
/// `StoreLayout` names), join tables for many-to-many and inverse-less to-many
/// relationships, `"Z_METADATA"` holding the model (the same JSON as the SQLite store's), one
/// key sequence per root table (`"Z_PK_<n>"`) and persistent history (see
/// `PostgreSQLHistorySchema`). Values are stored as: integers and Booleans `bigint` (0/1: a
/// Boolean may share a column with a sibling's integer, and predicates compare Booleans with
/// numbers); doubles, floats and dates `double precision` (dates in seconds since 2001, so
/// dates compare exactly); decimals, strings, UUIDs, URIs and transformables (JSON) `text
/// COLLATE "C"` (byte order, like SQLite's `BINARY`); binary `bytea`.
///
/// Every text column also has *shadow columns* computed in Swift when a row is written, with
/// the very functions the in-memory store uses, because PostgreSQL cannot run them:
/// `<col>__F0` (NFC), `__F1` (`[c]` fold), `__F2` (`[d]`), `__F3` (`[cd]`), each `NULL` when
/// equal to the value itself, and `__STD` (`bytea`, `PostgreSQLStandardSortKey`) whose byte
/// order is ``StandardStringOrder``'s. `PostgreSQLDialect` compares those.
///
/// Saves run in one `READ COMMITTED` transaction: multi-row `INSERT`s, versioned `UPDATE`s and
/// `DELETE`s (`WHERE "Z_PK" = $1 AND "Z_OPT" = $2`; no row is a conflict, resolved by the
/// caller's merge policy inside the transaction), history rows, and `pg_notify` on
/// ``notificationChannel`` with `<token>:<origin UUID>`.
///
/// Limits: PostgreSQL truncates identifiers to 63 bytes, so entity and attribute names (plus a
/// shadow's five-byte suffix) must stay under that to keep distinct columns; `text` cannot hold
/// U+0000, so a string containing it is refused by the server; transformables are kept as
/// their JSON text (no value transformer runs); `MATCHES` is PostgreSQL's regular expressions
/// (see `PostgreSQLDialect`).
///
/// A query started under a current ``QueryCancellation`` is cancelled on the server
/// (libpq's cancel request, sent on a connection of its own) when the token is, and then throws
/// ``QueryCancellationError/cancelled``.
///
/// Thread safety: every method may be called from any thread; each call blocks its thread on
/// a connection of `PostgreSQLConnectionPool` until the server answered.
public final class PostgreSQLStore: PersistentHistoryStore {
    /// How a store is opened.
    public struct Options: Sendable {
        /// Whether saves are refused (a missing store is then never created).
        public var readOnly: Bool = false
        /// Whether a new store records persistent history (fixed when the store is made).
        public var recordsHistory: Bool = true
        /// The origin written with this store's history transactions (`nil`: a new UUID).
        public var historyOrigin: UUID? = nil
        /// The most connections the store opens at once.
        public var maximumConnections: Int = 4

        /// Options for opening a store.
        public init(readOnly: Bool = false, recordsHistory: Bool = true, historyOrigin: UUID? = nil, maximumConnections: Int = 4) {
            self.readOnly = readOnly
            self.recordsHistory = recordsHistory
            self.historyOrigin = historyOrigin
            self.maximumConnections = maximumConnections
        }
    }

    /// Where the store lives.
    public let storeURL: PostgreSQLStoreURL
    /// The store's UUID, fixed when it was created.
    public let identifier: UUID
    /// The model the store was opened with (read from the store when none was given).
    public let model: ManagedObjectModel
    /// The options the store was opened with.
    public let options: Options
    /// The origin this store writes with its history transactions.
    public let historyOrigin: UUID
    /// Whether saves append persistent history (fixed when the store was made).
    public let recordsHistory: Bool
    /// The schema Quarry did not make that this store reads (always read-only), or `nil` for a
    /// Quarry store (see ``ForeignPostgreSQLSchema``).
    public let foreign: ForeignPostgreSQLSchema?

    let pool: PostgreSQLConnectionPool
    let layout: PostgreSQLLayout
    /// The collation `MATCHES` runs under: `und-x-icu` when the server has ICU, else `C`.
    let regexCollation: String
    private let commitUptime = Atomic<UInt64>(0)
    /// Keys this store took from its tables' sequences and has not handed out yet, by table
    /// (``PostgreSQLKeyBlocks``).
    let reservedKeys = Mutex<[Int: PostgreSQLKeyBlocks.Reserved]>([:])
    /// For a store pinned to one moment (``pinnedGeneration()``): the connection holding the
    /// `REPEATABLE READ` transaction every read goes through; `nil` for a live store.
    let pinned: PostgreSQLPinnedRead?

    /// The store URL as a `URL`.
    public var url: URL? { URL(string: storeURL.description) }
    /// Whether saves are refused.
    public var isReadOnly: Bool { options.readOnly }
    /// `DispatchTime` uptime nanoseconds right after this store's last `COMMIT` returned (0
    /// before the first): where benchmarks time another process's merge from.
    @_spi(Benchmarks) public var lastCommitUptime: UInt64 { commitUptime.load(ordering: .acquiring) }

    /// The channel every save notifies (`quarry_` and the schema, reduced to `[a-z0-9_]`, at
    /// most 63 bytes: PostgreSQL's identifier limit).
    public var notificationChannel: String { Self.channel(schema: storeURL.schema) }

    static func channel(schema: String) -> String {
        let reduced = schema.lowercased().unicodeScalars.map { s -> Character in
            (s >= "a" && s <= "z") || (s >= "0" && s <= "9") || s == "_" ? Character(s) : "_"
        }
        return String(("quarry_" + String(reduced)).prefix(63))
    }

    /// Opens the store at `url`, creating its schema, tables and metadata in one transaction
    /// when the schema holds no store. Opened read-only or without a model, a schema with
    /// tables and no Quarry store is read as it is (``foreign``).
    ///
    /// - Parameters:
    ///   - url: The server, database and schema.
    ///   - model: The model to open with; `nil` uses the stored one.
    ///   - options: Read-only mode, history, connections.
    /// - Throws: ``StoreError/modelMismatch(path:entities:)`` when `model` differs from the
    ///   stored one, ``StoreError/notAQuarryStore(path:)`` for a schema with tables of its own,
    ///   ``StoreError/missingMetadata(path:)`` for a missing store opened without a model or
    ///   read-only, ``StoreError/postgreSQL(store:sqlState:message:)`` from the server.
    public init(url: PostgreSQLStoreURL, model: ManagedObjectModel?, options: Options = .init()) throws {
        self.storeURL = url
        self.historyOrigin = options.historyOrigin ?? UUID()
        var pool = try PostgreSQLConnectionPool(url: url, maximumConnections: max(1, options.maximumConnections))
        let path = url.description
        let opened: (metadata: StoreMetadata, records: Bool)
        var foreign: ForeignPostgreSQLSchema?
        let hasICU: Bool
        do {
            // Whether the server has ICU decides how MATCHES runs (PostgreSQLDialect) and how a
            // schema Quarry did not make folds case.
            hasICU = try pool.withConnection { try !$0.query("SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu'").isEmpty }
            if let found = try Self.readMetadata(pool: pool, path: path) {
                opened = found
            } else if options.readOnly || model == nil,
                      let schema = try Self.readForeignSchema(pool: pool, foldCollation: hasICU ? "und-x-icu" : "default") {
                // Tables Quarry did not make: read as they are, on read-only sessions only.
                pool.close()
                pool = try PostgreSQLConnectionPool(url: url, maximumConnections: max(1, options.maximumConnections), readOnlySessions: true)
                foreign = schema
                opened = (StoreMetadata(identifier: Self.foreignIdentifier(url), model: schema.model, modelVersionHash: schema.model.versionHash,
                                        entityVersionHashes: schema.model.entityVersionHashes), false)
            } else {
                guard let model, !options.readOnly else { throw StoreError.missingMetadata(path: path) }
                opened = try Self.create(pool: pool, model: model, path: path, recordsHistory: options.recordsHistory)
            }
        } catch {
            pool.close()
            throw error
        }
        self.pool = pool
        self.pinned = nil
        if let model, model.versionHash != opened.metadata.modelVersionHash {
            pool.close()
            var entities = StoreMetadata.differingEntities(stored: opened.metadata.entityVersionHashes, current: model)
            if entities.isEmpty { entities = model.entities.map(\.name) }
            throw StoreError.modelMismatch(path: path, entities: entities)
        }
        var options = options
        if foreign != nil { options.readOnly = true }
        self.options = options
        self.foreign = foreign
        self.identifier = opened.metadata.identifier
        self.model = model ?? opened.metadata.model
        self.recordsHistory = opened.records
        self.layout = PostgreSQLLayout(model: self.model)
        self.regexCollation = hasICU ? "und-x-icu" : "C"
    }

    /// A copy of `store` reading through `pinned` (``pinnedGeneration()``): read-only, sharing
    /// the pool (which it leaves open), the same identity, model and layout.
    init(copying store: PostgreSQLStore, pinned: PostgreSQLPinnedRead) {
        var options = store.options
        options.readOnly = true
        self.storeURL = store.storeURL
        self.identifier = store.identifier
        self.model = store.model
        self.options = options
        self.historyOrigin = store.historyOrigin
        self.recordsHistory = store.recordsHistory
        self.foreign = store.foreign
        self.pool = store.pool
        self.layout = store.layout
        self.regexCollation = store.regexCollation
        self.pinned = pinned
    }

    deinit { close() }

    /// Closes the store's connections (calls made afterwards throw). A pinned copy
    /// (``pinnedGeneration()``) shares its store's pool and leaves it open.
    public func close() {
        if pinned == nil { pool.close() }
    }

    /// Whether the schema `url` names holds a Quarry store.
    public static func storeExists(url: PostgreSQLStoreURL) throws -> Bool {
        let pool = try PostgreSQLConnectionPool(url: url, maximumConnections: 1)
        defer { pool.close() }
        return try pool.withConnection { try hasMetadataTable($0) }
    }

    /// Drops the schema `url` names with everything in it, when it holds a Quarry store or
    /// nothing at all; does nothing when there is no such schema.
    ///
    /// - Throws: ``StoreError/notAQuarryStore(path:)`` for a schema with tables of its own
    ///   (left untouched).
    public static func destroy(url: PostgreSQLStoreURL) throws {
        let pool = try PostgreSQLConnectionPool(url: url, maximumConnections: 1)
        defer { pool.close() }
        try pool.transaction { connection in
            let exists = try connection.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", bindings(url.schema))
            guard !exists.isEmpty else { return }
            if try !hasMetadataTable(connection) {
                let objects = try connection.query("""
                    SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 LIMIT 1
                    """, bindings(url.schema))
                guard objects.isEmpty else { throw StoreError.notAQuarryStore(path: url.description) }
            }
            try connection.execute("DROP SCHEMA \(sqlIdentifier(url.schema)) CASCADE")
        }
    }

    static func hasMetadataTable(_ connection: PostgreSQLConnection) throws -> Bool {
        let rows = try connection.query("""
            SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
            WHERE n.nspname = $1 AND c.relname = 'Z_METADATA'
            """, bindings(connection.pool.url.schema))
        return !rows.isEmpty
    }

    /// One text bind.
    static func bindings(_ text: String) -> PGBindings {
        var b = PGBindings()
        b.append(text)
        return b
    }

    /// Records that a commit just returned (see ``lastCommitUptime``).
    func noteCommit() {
        commitUptime.store(DispatchTime.now().uptimeNanoseconds, ordering: .releasing)
    }

    /// Runs `body` on a pooled connection, errors named after the store.
    func read<T>(_ body: (PostgreSQLConnection) throws -> T) throws -> T {
        if let pinned { return try pinned.read { try body(PostgreSQLConnection(connection: $0, pool: pool)) } }
        return try pool.withConnection(body)
    }
}
