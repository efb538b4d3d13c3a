import Foundation
import Synchronization

/// A ``PersistentStore`` that is a folder of JSON files (M3CoreData's atomic store format):
/// `_Metadata.json` and one `<Entity>.json` per entity, from object ID to the object's values.
///
/// Like Core Data's atomic stores it is loaded whole into memory when opened and written whole
/// by every save; between the two it behaves exactly as ``InMemoryStore`` (which it is built
/// on): one primary-key sequence per root entity, row versions for optimistic locking and
/// conflicts, uniqueness constraints, all-or-nothing saves. A save writes every file beside its
/// final name and renames it into place, the metadata last, keeping the previous files until
/// the metadata commits (see `JSONStoreFolder`): after a crash at any point the folder reads
/// as the old store or the new one, whole.
///
/// The format (see docs/stores.md):
/// ```json
/// // _Metadata.json
/// {"format": "Quarry JSON store", "formatVersion": 1, "storeUUID": "…", "generation": 2,
///  "modelVersionHash": "…", "keyCounters": {"Sector": 1, "Ticker": 2}, "model": {…}}
/// // Ticker.json
/// {
///   "1": {"symbol": "ACME", "price": 12.5, "listed": "2024-05-01 12:00:00.25 +0000", "sector": "Sector.1"},
///   "2": {"symbol": "BOLT", "price": 3, "sector": "Sector.1"}
/// }
/// ```
///
/// Opening: a missing folder, or an empty one, becomes a new store (a model is needed); a
/// folder with `_Metadata.json` is loaded (`model` `nil` takes the stored model; a different
/// model throws ``StoreError/modelMismatch(path:entities:)``: JSON stores are not migrated);
/// anything else (a file, a folder of other files) is refused and never written.
///
/// Thread safety: `Sendable`; any number of coordinators may share one instance (they must:
/// two instances on one folder would each save their own state over the other's, which the
/// second one's save detects and refuses with ``JSONStoreError/changedOnDisk(path:loadedGeneration:foundGeneration:)``).
/// Saves are serialised on the in-memory store's queue, and the files are written there.
///
/// ```swift
/// let store = try JSONStore(url: URL(fileURLWithPath: "Tickers.store"), model: model)
/// let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store))
/// ```
public final class JSONStore: PersistentStore {
    /// How a JSON store is opened.
    public struct Options: Sendable {
        /// Refuse every save with ``StoreError/readOnly(path:)`` and never write to the folder
        /// (not even to tidy up after an interrupted save). The store must exist.
        public var readOnly = false

        /// Default options: read-write, created when missing.
        public init() {}
    }

    /// The UUID stored in `_Metadata.json`.
    public let identifier: UUID
    /// The application's own keys of `_Metadata.json` (name → the value's JSON text), kept and
    /// written back by every save.
    public var applicationMetadata: [String: String] { Dictionary(applicationKeys.map { ($0.key, $0.jsonText) }) { first, _ in first } }
    private let applicationKeys: [JSONStoreMetadata.ApplicationKey]
    /// The model: the one given, or the one stored in `_Metadata.json`.
    public let model: ManagedObjectModel
    /// The folder.
    public var url: URL? { folder.url }
    /// Whether saves are refused.
    public let isReadOnly: Bool

    let memory: InMemoryStore
    let folder: JSONStoreFolder
    /// The generation on disk that the in-memory state matches; changed only on `memory`'s queue.
    private let generation: Atomic<Int64>
    /// Tests cut a save short after this many file steps (a simulated crash); `Int.max`: never.
    let crashAfterFileSteps = Atomic<Int>(.max)

    /// Opens (or creates) the JSON store folder at `url`.
    ///
    /// - Parameters:
    ///   - url: The store folder.
    ///   - model: The model; `nil` reads it from `_Metadata.json` (the store must exist).
    ///   - options: Read-only or not.
    /// - Throws: ``JSONStoreError`` naming the file (and for a bad file the line and column),
    ///   ``StoreError/modelMismatch(path:entities:)`` when the store was made with another model.
    public init(url: URL, model: ManagedObjectModel? = nil, options: Options = Options()) throws {
        try FileKind.requireStorePath(url.path, directories: true)
        let folder = JSONStoreFolder(url: url.standardizedFileURL)
        self.folder = folder
        self.isReadOnly = options.readOnly
        let folderState = try Self.folderState(folder)
        switch folderState {
        case .store:
            break
        case .absent, .empty:
            let what = Self.notAStore(folderState)
            guard let model else { throw JSONStoreError.missingStore(path: folder.path, reason: "\(what), and no model was given to create one") }
            guard !options.readOnly else { throw JSONStoreError.missingStore(path: folder.path, reason: "\(what), and a read-only store is never created") }
            try Self.create(folder, model: model)
        }
        let metadataFile = try folder.read(JSONStoreFolder.metadataName)
        let (metadata, stored) = try JSONStoreMetadata.decode(metadataFile, folder: folder.path)
        if let model, let hash = metadata.modelVersionHash, model.versionHash != hash {
            throw StoreError.modelMismatch(path: folder.path, entities: stored.map { Self.differingEntities(model, $0) } ?? [])
        }
        guard let model = model ?? stored else {
            throw metadataFile.fault(metadataFile.document.root, "the store metadata has no 'model' and no model was given")
        }
        // Saves and recovery never change _Metadata.json's contents, so it is read once.
        if !options.readOnly { try folder.run(try folder.recoveryPlan(model: model)) }
        self.model = model
        self.identifier = metadata.identifier
        self.applicationKeys = metadata.applicationKeys
        self.generation = Atomic(metadata.generation)
        self.memory = InMemoryStore(model: model, identifier: metadata.identifier, isReadOnly: options.readOnly)
        let state = try Self.load(folder, model: model, layout: memory.layout, counters: metadata.keyCounters)
        memory.state.sync { $0 = state }
    }

    /// The model the store folder at `url` records, read from `_Metadata.json` alone (no
    /// entity file is read: opening the whole store for its model reads every object).
    /// - Throws: ``JSONStoreError`` naming the file (and for a bad file the line and column),
    ///   also when the folder is no store or its metadata has no model.
    public static func recordedModel(url: URL) throws -> ManagedObjectModel {
        try FileKind.requireStorePath(url.path, directories: true)
        let folder = JSONStoreFolder(url: url.standardizedFileURL)
        let state = try folderState(folder)
        guard state == .store else { throw JSONStoreError.missingStore(path: folder.path, reason: notAStore(state)) }
        let metadataFile = try folder.read(JSONStoreFolder.metadataName)
        guard let model = try JSONStoreMetadata.decode(metadataFile, folder: folder.path).1 else {
            throw metadataFile.fault(metadataFile.document.root, "the store metadata has no 'model' and no model was given")
        }
        return model
    }

    /// What a folder holding no store is, for the user: an empty folder is most often a wrong
    /// path, not a store to be.
    private static func notAStore(_ state: FolderState) -> String {
        state == .empty
            ? "an empty folder, not a store (a JSON store folder holds _Metadata.json; a Quarry SQLite store is a file)"
            : "no store here"
    }

    /// Opens the store read-only or read-write (a shorthand for ``init(url:model:options:)``).
    public convenience init(url: URL, model: ManagedObjectModel?, readOnly: Bool) throws {
        var options = Options()
        options.readOnly = readOnly
        try self.init(url: url, model: model, options: options)
    }

    // MARK: Reads (the in-memory store's)

    /// The committed state of each of `ids` that still exists.
    public func snapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] { try memory.snapshots(for: ids) }

    /// The committed contents of relationship `relationship` of `id`.
    public func relatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID] {
        try memory.relatedIDs(of: id, relationship: relationship)
    }

    /// Every member list of to-many `relationship` of the entity at `entityIndex`, by owner
    /// (see ``InMemoryStore/allRelatedIDs(ofEntity:relationship:)``).
    public func allRelatedIDs(ofEntity entityIndex: Int, relationship: Int) throws -> [ObjectID: [ObjectID]]? {
        try memory.allRelatedIDs(ofEntity: entityIndex, relationship: relationship)
    }

    /// The IDs `request` selects, in order.
    public func objectIDs(for request: StoreQuery) throws -> [ObjectID] { try memory.objectIDs(for: request) }

    /// How many objects `request` selects.
    public func count(for request: StoreQuery) throws -> Int { try memory.count(for: request) }

    /// The IDs `request` selects with the values of `keyPaths`.
    public func keyedIDs(for request: StoreQuery, keyPaths: [String]) throws -> [(id: ObjectID, keys: [Value])] {
        try memory.keyedIDs(for: request, keyPaths: keyPaths)
    }

    /// The in-memory store's token: it changes with every save of this instance and never
    /// repeats across instances, so caches are not reused after the folder was reopened (it may
    /// have been edited by hand in between).
    public func modificationToken() throws -> String? { try memory.modificationToken() }

    // MARK: Saves

    /// Applies `changes` all or nothing, in memory and in the folder (see
    /// ``PersistentStore/save(_:resolve:)`` and ``InMemoryStore/save(_:resolve:)``).
    ///
    /// The files are written before the new state is taken: when writing fails the store (in
    /// memory and on disk) is as before the save.
    /// - Throws: ``StoreError/readOnly(path:)``, ``MergeConflictError``,
    ///   ``StoreError/uniquenessViolation(entity:keys:)``, ``JSONStoreError/io(path:reason:)``,
    ///   ``JSONStoreError/changedOnDisk(path:loadedGeneration:foundGeneration:)``.
    public func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution) throws -> StoreSaveResult {
        guard !isReadOnly else { throw StoreError.readOnly(path: folder.path) }
        return try memory.save(changes, resolve: resolve) { state in
            guard !changes.isEmpty else { return }
            try write(state)
        }
    }

    /// Writes `state` as the next generation, atomically.
    private func write(_ state: InMemoryState) throws {
        let loaded = generation.load(ordering: .sequentiallyConsistent)
        let onDisk = try folder.generation(in: JSONStoreFolder.metadataName)
        guard onDisk == loaded else {
            throw JSONStoreError.changedOnDisk(path: folder.path, loadedGeneration: loaded, foundGeneration: onDisk)
        }
        // A save of this instance that failed half way (disk full) left backups behind: put
        // the folder back in order first, or this save would back up the half-written files.
        try folder.run(try folder.recoveryPlan(model: model))
        let (files, metadata) = Self.contents(of: state, model: model, layout: memory.layout, identifier: identifier,
                                              generation: loaded + 1, applicationKeys: applicationKeys)
        try folder.run(folder.savePlan(files: files, metadata: metadata), limit: crashAfterFileSteps.load(ordering: .sequentiallyConsistent))
        generation.store(loaded + 1, ordering: .sequentiallyConsistent)
    }

    // MARK: Files

    /// Every file of `state` as generation `generation`: entity files, then the metadata text.
    static func contents(of state: InMemoryState, model: ManagedObjectModel, layout: InMemoryLayout, identifier: UUID,
                         generation: Int64, applicationKeys: [JSONStoreMetadata.ApplicationKey] = []) -> (files: [(name: String, text: String)], metadata: String) {
        let writer = JSONEntityFileWriter(model: model, layout: layout, state: state)
        let files = JSONStoreFolder.storedEntities(of: model).map { (JSONStoreFolder.fileName(of: $0), writer.text(of: $0)) }
        var counters: [String: Int64] = [:]
        for (root, last) in state.lastPrimaryKeys { counters[model.entities[root].name] = last }
        let metadata = JSONStoreMetadata(identifier: identifier, generation: generation, modelVersionHash: model.versionHash,
                                         keyCounters: counters, modelText: model.definition.jsonText(), applicationKeys: applicationKeys)
        return (files, metadata.text())
    }

    private enum FolderState { case absent, empty, store }

    /// What is at the folder's path; refuses a file and a folder that is not a store.
    private static func folderState(_ folder: JSONStoreFolder) throws -> FolderState {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else { return .absent }
        guard isDirectory.boolValue else { throw JSONStoreError.notAFolder(path: folder.path) }
        if folder.exists(JSONStoreFolder.metadataName) { return .store }
        let contents: [String]
        do {
            contents = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw JSONStoreError.io(path: folder.path, reason: "cannot list the folder: \(error.localizedDescription)")
        }
        if contents.isEmpty { return .empty }
        throw JSONStoreError.notAJSONStore(path: folder.path)
    }

    /// Creates an empty store at `folder` (absent or empty) in one step: the files are written
    /// in a sibling folder that is then renamed into place, so a crash leaves no half store.
    private static func create(_ folder: JSONStoreFolder, model: ManagedObjectModel) throws {
        let parent = folder.url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw JSONStoreError.io(path: parent.path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        let staging = JSONStoreFolder(url: parent.appendingPathComponent(".\(folder.url.lastPathComponent).creating-\(UUID().uuidString)"))
        do {
            try FileManager.default.createDirectory(at: staging.url, withIntermediateDirectories: false)
        } catch {
            throw JSONStoreError.io(path: staging.path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        let (files, metadata) = contents(of: InMemoryState(), model: model, layout: InMemoryLayout(model: model),
                                         identifier: UUID(), generation: 1)
        do {
            try staging.run(files.map { .write($0.name, Data($0.text.utf8)) } + [.write(JSONStoreFolder.metadataName, Data(metadata.utf8)), .syncFolder])
            // rename(2) replaces an empty folder in one step; a non-empty one (someone was
            // quicker) makes it fail and nothing of theirs is touched.
            try JSONStoreFileStep.rename(from: staging.url.lastPathComponent, to: folder.url.lastPathComponent).run(in: parent)
            try JSONStoreFileStep.sync(parent.path)
        } catch {
            // Best-effort clean-up of the staging folder after a failed write; the write's error is what is thrown.
            try? FileManager.default.removeItem(at: staging.url)
            throw error
        }
    }

    /// Reads every entity file of the committed generation.
    private static func load(_ folder: JSONStoreFolder, model: ManagedObjectModel, layout: InMemoryLayout,
                             counters: [String: Int64]) throws -> InMemoryState {
        let uncommitted = try folder.hasUncommittedSave()
        var reader = JSONEntityFileReader(model: model, layout: layout)
        for entity in JSONStoreFolder.storedEntities(of: model) {
            guard let name = folder.committedFile(of: entity, uncommittedSave: uncommitted) else { continue }
            try reader.read(try folder.read(name), entity: entity)
        }
        return try reader.finish(counters: counters)
    }

    /// The names of the entities whose version hashes differ between `a` and `b` (both ways).
    private static func differingEntities(_ a: ManagedObjectModel, _ b: ManagedObjectModel) -> [String] {
        let ha = a.entityVersionHashes, hb = b.entityVersionHashes
        return Set(ha.keys).union(hb.keys).filter { ha[$0] != hb[$0] }.sorted()
    }
}
