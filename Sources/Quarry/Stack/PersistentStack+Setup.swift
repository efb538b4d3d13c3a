import Foundation
import Synchronization

extension PersistentStack {
    /// Sets up a stack with every model file found in `folder` (`.json` model files,
    /// `.xcdatamodel`, `.xcdatamodeld`) merged into one model (RTCoreDataStack's
    /// `setupWithCallback:`).
    /// - Throws: ``ModelError`` when none is found or two define the same entity.
    public convenience init(modelsIn folder: URL, options: Options = Options()) throws {
        try self.init(model: try Self.mergedModel(in: folder), options: options)
    }

    /// Sets up a stack with the model named `name` in `folder` (`name.json`,
    /// `name.xcdatamodeld` or `name.xcdatamodel`).
    public convenience init(modelNamed name: String, in folder: URL, options: Options = Options()) throws {
        try self.init(model: try Self.loadModel(named: name, in: folder), options: options)
    }

    /// Sets up a stack with the model file at `modelURL` (`.json`, `.xcdatamodel` or
    /// `.xcdatamodeld`) and a store of `storeType` at `storeURL` (M3's manager: type, model
    /// URL, store URL, options; `nil` for the default location, or no file for `.inMemory`).
    ///
    /// ```swift
    /// let stack = try PersistentStack(modelURL: URL(fileURLWithPath: "Tickers.json"),
    ///                                 storeURL: URL(fileURLWithPath: "Tickers.jsonstore"), storeType: .json)
    /// ```
    /// - Throws: ``ModelError`` for the model file, ``StoreError`` or ``JSONStoreError`` for the store.
    public convenience init(modelURL: URL, storeURL: URL?, storeType: StoreType = .sqlite,
                            options: Options = Options()) throws {
        var options = options
        options.storeType = storeType
        if let storeURL { options.storeURL = storeURL }
        try self.init(model: try Self.loadModel(at: modelURL), options: options)
    }

    /// Loads the model file at `url`: a JSON model (`.json`) or an Xcode model
    /// (`.xcdatamodel`, `.xcdatamodeld`).
    /// - Throws: ``ModelError/fileNotFound(path:)`` for any other extension or a missing file.
    public static func loadModel(at url: URL) throws -> ManagedObjectModel {
        switch url.pathExtension {
        case "json": return try ManagedObjectModel.load(jsonAt: url)
        case "xcdatamodel", "xcdatamodeld": return try ManagedObjectModel.load(xcodeModelAt: url)
        default: throw ModelError.fileNotFound(path: url.path + " (a model is a .json, .xcdatamodel or .xcdatamodeld)")
        }
    }

    /// Sets up a stack on a background queue and calls `completion` on the main queue.
    public static func setUp(model: ManagedObjectModel, options: Options = Options(),
                             completion: @escaping @Sendable (Result<PersistentStack, Error>) -> Void) {
        DispatchQueue.global().async {
            let result = Result { try PersistentStack(model: model, options: options) }
            DispatchQueue.main.async { completion(result) }
        }
    }

    /// Sets up a stack off the caller's thread.
    public static func make(model: ManagedObjectModel, options: Options = Options()) async throws -> PersistentStack {
        try await withCheckedThrowingContinuation { c in
            DispatchQueue.global().async { c.resume(with: Result { try PersistentStack(model: model, options: options) }) }
        }
    }

    /// The configurable default stack (`nil` until set).
    public static var shared: PersistentStack? {
        get { sharedStack.withLock { $0 } }
        set { sharedStack.withLock { $0 = newValue } }
    }

    /// Loads `name.json`, `name.xcdatamodeld` or `name.xcdatamodel` from `folder`.
    public static func loadModel(named name: String, in folder: URL) throws -> ManagedObjectModel {
        let fm = FileManager.default
        for ext in ["json", "xcdatamodeld", "xcdatamodel"] {
            let url = folder.appendingPathComponent("\(name).\(ext)")
            guard fm.fileExists(atPath: url.path) else { continue }
            return try loadModel(at: url)
        }
        throw ModelError.fileNotFound(path: folder.appendingPathComponent("\(name).{json,xcdatamodeld,xcdatamodel}").path)
    }

    /// Every model in `folder`, merged into one.
    public static func mergedModel(in folder: URL) throws -> ManagedObjectModel {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? []
        var entities: [EntityDefinition] = []
        var warnings: [ModelWarning] = []
        for name in names {
            let url = folder.appendingPathComponent(name)
            guard ["json", "xcdatamodeld", "xcdatamodel"].contains(url.pathExtension) else { continue }
            let model = try loadModel(at: url)
            entities += model.definition.entities
            warnings += model.warnings
        }
        guard !entities.isEmpty else { throw ModelError.fileNotFound(path: folder.appendingPathComponent("*.{json,xcdatamodeld,xcdatamodel}").path) }
        return try ManagedObjectModel(ModelDefinition(entities: entities), warnings: warnings)
    }
}

private let sharedStack = Mutex<PersistentStack?>(nil)
