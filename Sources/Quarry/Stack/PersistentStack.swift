import Foundation
import Synchronization

/// One store, two coordinators, four kinds of context and the smart merge (RTCoreDataStack).
///
/// - ``mainContext``: main queue, on the *main* coordinator, merge policy store-trump: the UI's context.
/// - ``importerContext()``: a private queue on the *writer* coordinator, object-trump: imports
///   save straight to the store without touching the main queue.
/// - ``temporaryContext()``: a child of main with the rollback policy whose `save()` is always
///   refused: nothing in it ever reaches main or the store.
/// - ``creatorContext()``: a child of main with the overwrite policy whose `save()` goes to main
///   and on to the store.
///
/// The *smart merge*: every save that reaches the store through the writer coordinator is
/// merged into ``mainContext`` on the main queue. The writer coordinator reports each commit
/// as it happens, so the merge is queued before the saving context has updated its own
/// objects and posted its did-save (what RTCoreDataStack's observer of every did-save does,
/// a few hundred microseconds sooner for a large save). Registered objects refresh, nothing else is loaded,
/// inserted and updated IDs are announced (so live fetched-results controllers can decide
/// about them in one batch).
///
/// ```swift
/// let stack = try PersistentStack(model: model, storeURL: url)
/// let importer = stack.importerContext()
/// try importer.performAndWait { /* insert, update */ try importer.save() }
/// // mainContext refreshes on the main queue
/// ```
public final class PersistentStack: @unchecked Sendable {
    // Mutable state sits behind `state` (a Mutex); the contexts confine their own state.

    /// How a stack is set up.
    public struct Options: Sendable {
        /// Where the store lives; `nil` for the XDG default (``PersistentStack/defaultStoreURL(name:type:)``).
        /// A `postgres://user@host:port/database?schema=name` URL (``PostgreSQLStoreURL``,
        /// e.g. `URL(string: "postgres://quarry@db.example/quarry?schema=tickers")`) opens a
        /// PostgreSQL store whatever ``storeType`` says.
        public var storeURL: URL?
        /// The store's name for the default location, ``PersistentStack/defaultStoreURL(name:type:)``
        /// (`<storeName>.sqlite`; unused when ``storeURL`` is set). Unless set, the executable's
        /// name (RTCoreDataStack names the store after the app; `quarry` when the process has
        /// no name), and for a stack set up from a named model
        /// (``PersistentStack/init(modelNamed:in:options:)``) the model's name, as na_ios's
        /// model controller does (`Tickers.xcdatamodeld` → `Tickers.sqlite`).
        public var storeName: String {
            get { chosenStoreName ?? PersistentStack.executableName }
            set { chosenStoreName = newValue }
        }
        /// The store name the caller set; `nil` leaves the name to the defaults ``storeName`` describes.
        var chosenStoreName: String?
        /// Which store the stack opens (default ``StoreType/sqlite``).
        public var storeType: StoreType = .sqlite
        /// Keep the store in memory instead of SQLite: `storeType == .inMemory` (kept for
        /// existing code; setting it `false` goes back to SQLite only from in-memory).
        public var inMemory: Bool {
            get { storeType == .inMemory }
            set { storeType = newValue ? .inMemory : (storeType == .inMemory ? .sqlite : storeType) }
        }
        /// Migrate a store made with another model to this stack's model on open (default on):
        /// Core Data's inferred lightweight migration, in one transaction (see
        /// ``SQLiteStore/migrate(url:to:versions:busyTimeout:progress:isCancelled:)``). Off: opening such a store
        /// throws ``StoreError/modelMismatch(path:entities:)`` naming the entities that differ.
        /// The in-memory and JSON stores are never migrated (a JSON store made with another
        /// model throws ``StoreError/modelMismatch(path:entities:)``). When ``onModelMismatch``
        /// is set, it decides instead.
        public var automaticLightweightMigration = true
        /// The model's versions (an `.xcdatamodeld` bundle), so a store of any version migrates
        /// step by step when no direct mapping keeps its data.
        public var modelVersions: ModelVersionHistory?
        /// Told when an existing store was made with another model than the stack's, and
        /// decides what happens (M3CoreData's manager delegate): ``ModelMismatchDecision/migrate``,
        /// ``ModelMismatchDecision/refuse`` or ``ModelMismatchDecision/replace``. It is called at
        /// most once per open, on the thread setting the stack up, and never for a store that
        /// matches, a new store, a read-only open or a foreign database. When set, it decides
        /// instead of ``automaticLightweightMigration``. SQLite and JSON stores ask it (a JSON
        /// store cannot migrate: `.migrate` throws as `.refuse` does); PostgreSQL stores do not.
        public var onModelMismatch: (@Sendable (ModelMismatch) -> ModelMismatchDecision)?
        /// Called with the progress of a migration on open that copies rows.
        public var migrationProgress: (@Sendable (MigrationProgress) -> Void)?
        /// A database Quarry did not make to open instead of a store at ``storeURL`` (see
        /// ``ForeignDatabase``): always read-only, with the model it recovered (the stack's
        /// model must be `foreignDatabase.model`).
        public var foreignDatabase: ForeignDatabase?
        /// Merge importer saves into the main context (default on).
        public var mergesIncomingSavedObjects = true
        /// Make saving the main context a reported no-op.
        public var isMainContextReadOnly = false
        /// Open the store read-only (SQLite: `PRAGMA query_only`; JSON: the folder is never
        /// written): every save fails with ``StoreError/readOnly(path:)`` and the main context
        /// is read-only too. The store must exist.
        public var readOnly = false
        /// A store file (or JSON store folder) copied into place when the store is absent (first run).
        public var seedStoreURL: URL?
        /// SQLite busy timeout in seconds.
        public var busyTimeout: Double = 5
        /// Merge other processes' commits into the main context as they land (default on; see
        /// ``PersistentStack/remoteChangeNotification``). An SQLite store Quarry made is watched
        /// for commits on this machine, a PostgreSQL store `LISTEN`s for commits from every
        /// host; in-memory and JSON stores (and foreign databases) never are.
        public var watchesRemoteChanges = true
        /// Whether a SQLite store the stack creates records persistent history (default on; see
        /// ``SQLiteStore/Options/recordsHistory``): an existing store keeps what it was made with.
        public var recordsPersistentHistory = true
        /// The origin of the history this stack's saves write (``HistoryTransaction/origin``);
        /// `nil`: a new UUID per stack, shared by its two stores.
        public var historyOrigin: UUID?
        /// The model configuration the store is opened for (``ModelConfiguration``): the store
        /// holds that configuration's entities only, and ``PersistentStack/model`` is
        /// ``ManagedObjectModel/forConfiguration(_:)`` of the model given. `nil`: every entity.
        public var configuration: String?

        /// Default options.
        public init() {}
    }

    struct State {
        /// The back end that opened the stores: the stack's one way to its store type.
        var backEnd: any StoreBackEnd
        var mainCoordinator: StoreCoordinator
        var writerCoordinator: StoreCoordinator
        var mainContext: ObjectContext
        var options: Options
        var lastMerge: Date?
        var mergeCount = 0
        /// Watches the store for other processes' commits (see `PersistentStack+RemoteChanges`).
        var remoteWatch: RemoteChangeWatch?
        /// The last failure on the remote path, until a later read succeeds (``lastRemoteError``).
        var lastRemoteError: RemoteChangeError?
    }

    /// The model.
    public let model: ManagedObjectModel
    let state: Mutex<State>
    private let mergeObservers = Mutex<[Int: @Sendable (SaveChanges) -> Void]>([:])
    let remoteObservers = Mutex<[Int: @Sendable (RemoteChange) -> Void]>([:])
    /// The last merged history token per consumer, for a store that cannot keep them (see
    /// ``lastMergedHistoryToken(consumer:)``) and as the value last set.
    /// (`.some(nil)`: set to `nil`, not to be read from the store again.)
    let historyConsumers = Mutex<[String: HistoryToken?]>([:])

    /// Sets up a stack for `model` with `options`.
    /// - Throws: ``StoreError`` when the store cannot be opened (not SQLite, locked, other model).
    public init(model: ManagedObjectModel, options: Options = Options()) throws {
        let model = try options.configuration.map { try model.forConfiguration($0) } ?? model
        self.model = model
        var options = options
        options.storeType = options.storeType.resolved(for: options.storeURL)
        let backEnd = try options.openBackEnd(model: model)
        let (main, writer) = Self.coordinators(of: backEnd)
        let context = Self.makeMainContext(main, options: options)
        self.state = Mutex(State(backEnd: backEnd, mainCoordinator: main, writerCoordinator: writer, mainContext: context, options: options))
        observeCommits(of: writer)
        try startWatchingRemoteChanges()
    }

    /// Sets up a stack for `model` with its store (of `storeType`) at `storeURL`.
    public convenience init(model: ManagedObjectModel, storeURL: URL, storeType: StoreType = .sqlite) throws {
        var options = Options()
        options.storeURL = storeURL
        options.storeType = storeType
        try self.init(model: model, options: options)
    }

    deinit {
        state.withLock { $0.remoteWatch }?.cancel()
    }

    // MARK: Contexts

    /// The main-queue context the UI reads.
    public var mainContext: ObjectContext { state.withLock { $0.mainContext } }

    /// Where the store lives (`nil` in memory).
    public var storeURL: URL? { state.withLock { $0.mainCoordinator.store.url } }

    /// The writer coordinator (importer contexts use it).
    public var writerCoordinator: StoreCoordinator { state.withLock { $0.writerCoordinator } }

    /// A new private-queue context on the writer coordinator, merge policy object-trump.
    public func importerContext() -> ObjectContext {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: writerCoordinator, name: "importer")
        context.mergePolicy = .mergeByPropertyObjectTrump
        return context
    }

    /// A new child of the main context, merge policy rollback, whose saves are refused.
    public func temporaryContext() -> ObjectContext {
        let context = ObjectContext(concurrencyType: .mainQueue, parent: mainContext, name: "temporary")
        context.mergePolicy = .rollback
        context.saveRefusal = "a temporary context never saves: its changes cannot reach the main context or the store"
        return context
    }

    /// A new child of the main context, merge policy overwrite, whose saves go to main and on
    /// to the store.
    public func creatorContext() -> ObjectContext {
        let context = ObjectContext(concurrencyType: .mainQueue, parent: mainContext, name: "creator")
        context.mergePolicy = .overwrite
        context.savesThroughToStore = true
        return context
    }

    // MARK: Options

    /// Whether saving the main context is a reported no-op.
    public var isMainContextReadOnly: Bool {
        get { state.withLock { $0.options.isMainContextReadOnly } }
        set {
            let context = state.withLock { s in s.options.isMainContextReadOnly = newValue; return s.mainContext }
            context.performAndWait { context.isReadOnly = newValue }
        }
    }

    /// Whether importer saves are merged into the main context.
    public var mergesIncomingSavedObjects: Bool {
        get { state.withLock { $0.options.mergesIncomingSavedObjects } }
        set { state.withLock { $0.options.mergesIncomingSavedObjects = newValue } }
    }

    /// When the last merge into the main context ran, and how many have run: the smart merges of
    /// this stack's importers' saves and the merges of other connections' commits alike.
    public var mergeStatistics: (last: Date?, count: Int) { state.withLock { ($0.lastMerge, $0.mergeCount) } }

    /// Calls `block` on the main queue after each smart merge into the main context.
    @discardableResult
    public func addMergeObserver(_ block: @escaping @Sendable (SaveChanges) -> Void) -> ObservationToken {
        let id = mergeObservers.withLock { o in let id = (o.keys.max() ?? 0) + 1; o[id] = block; return id }
        return ObservationToken { [weak self] in self?.mergeObservers.withLock { _ = $0.removeValue(forKey: id) } }
    }

    // MARK: The smart merge

    /// Merges every save through `writer` into the main context: the writer coordinator tells
    /// the stack of each commit as it happens (``StoreCoordinator/onCommit(_:)``), on the saving
    /// context's queue, before that context updates its own objects and posts its did-save.
    /// Saves through a writer coordinator that `destroyAndSetUp()` replaced are not merged.
    func observeCommits(of writer: StoreCoordinator) {
        let writerID = writer.identifier
        writer.onCommit { [weak self] changes in self?.merge(changes, committedThrough: writerID) }
    }

    private func merge(_ changes: SaveChanges, committedThrough writerID: UUID) {
        let (currentWriterID, main, merges) = state.withLock { ($0.writerCoordinator.identifier, $0.mainContext, $0.options.mergesIncomingSavedObjects) }
        guard writerID == currentWriterID, merges else { return }
        main.perform { [weak self] in
            main.merge(fromDidSave: changes)
            guard let self else { return }
            self.state.withLock { $0.lastMerge = Date(); $0.mergeCount += 1 }
            for block in self.mergeObservers.withLock({ $0.sorted { $0.key < $1.key }.map(\.value) }) { block(changes) }
        }
    }

    // MARK: Set-up

    /// The main and writer coordinators on `backEnd`'s stores (one instance for both, for the
    /// in-memory and JSON back ends).
    private static func coordinators(of backEnd: any StoreBackEnd) -> (StoreCoordinator, StoreCoordinator) {
        (StoreCoordinator(store: backEnd.main, name: "main"), StoreCoordinator(store: backEnd.writer, name: "writer"))
    }

    private static func makeMainContext(_ coordinator: StoreCoordinator, options: Options) -> ObjectContext {
        let context = ObjectContext(concurrencyType: .mainQueue, coordinator: coordinator, name: "main")
        context.mergePolicy = .mergeByPropertyStoreTrump
        context.isReadOnly = options.isMainContextReadOnly || options.readOnly || options.foreignDatabase != nil
        return context
    }

    /// Deletes the store (its files or folder; a PostgreSQL store: drops its schema) and sets
    /// everything up again: new coordinators and a new main context (contexts handed out before
    /// are detached from the new store).
    /// - Throws: ``StoreError/readOnly(path:)`` for a database Quarry did not make (never
    ///   deleted); the back end's error when the store cannot be deleted or opened again.
    public func destroyAndSetUp() throws {
        let (options, old) = state.withLock { ($0.options, $0.backEnd) }
        // A database Quarry did not make is never deleted (nor written).
        if let database = options.foreignDatabase { throw StoreError.readOnly(path: database.path) }
        stopWatchingRemoteChanges()
        try old.destroy()
        let backEnd = try options.openBackEnd(model: model)
        let (main, writer) = Self.coordinators(of: backEnd)
        let context = Self.makeMainContext(main, options: options)
        state.withLock { s in
            s.backEnd = backEnd
            s.mainCoordinator = main
            s.writerCoordinator = writer
            s.mainContext = context
            s.lastRemoteError = nil
        }
        observeCommits(of: writer)
        try startWatchingRemoteChanges()
    }
}
