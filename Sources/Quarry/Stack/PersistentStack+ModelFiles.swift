import Foundation

extension PersistentStack {
    /// The model files Quarry loads, in the order a named model is looked for.
    static let modelFileExtensions = ["json", "xcdatamodeld", "xcdatamodel"]
    /// Compiled Core Data models, looked for last: found, they are refused (not loaded yet).
    static let compiledModelExtensions = ["momd", "mom"]

    /// Loads the model file at `url`: a JSON model (`.json`) or an Xcode model
    /// (`.xcdatamodel`, `.xcdatamodeld`).
    /// - Throws: ``ModelError/compiledModelUnsupported(path:)`` for a `.momd` or `.mom`,
    ///   ``ModelError/fileNotFound(path:)`` for any other extension or a missing file.
    public static func loadModel(at url: URL) throws -> ManagedObjectModel {
        switch url.pathExtension {
        case "json": return try ManagedObjectModel.load(jsonAt: url)
        case "xcdatamodel", "xcdatamodeld": return try ManagedObjectModel.load(xcodeModelAt: url)
        case "momd", "mom": throw ModelError.compiledModelUnsupported(path: url.path)
        default: throw ModelError.fileNotFound(path: url.path + " (a model is a .json, .xcdatamodel or .xcdatamodeld)")
        }
    }

    /// Loads the model named `name` from `folder`, looking for `name.json`, then
    /// `name.xcdatamodeld`, then `name.xcdatamodel`, and loading the first found.
    ///
    /// ```swift
    /// let model = try PersistentStack.loadModel(named: "Tickers", in: URL(fileURLWithPath: "Models"))
    /// ```
    /// - Throws: ``ModelError/compiledModelUnsupported(path:)`` when none of those is there but
    ///   a compiled `name.momd` or `name.mom` is (compiled models do not load yet);
    ///   ``ModelError/modelNotFound(folder:tried:)`` naming `folder` and every file name tried
    ///   when nothing is; the loader's ``ModelError`` for a bad file.
    public static func loadModel(named name: String, in folder: URL) throws -> ManagedObjectModel {
        let fm = FileManager.default
        let sources = modelFileExtensions.map { "\(name).\($0)" }
        for file in sources where fm.fileExists(atPath: folder.appendingPathComponent(file).path) {
            return try loadModel(at: folder.appendingPathComponent(file))
        }
        let compiled = compiledModelExtensions.map { "\(name).\($0)" }
        for file in compiled where fm.fileExists(atPath: folder.appendingPathComponent(file).path) {
            throw ModelError.compiledModelUnsupported(path: folder.appendingPathComponent(file).path)
        }
        throw ModelError.modelNotFound(folder: folder.path, tried: sources + compiled)
    }

    /// Every model in `folder` (`.json`, `.xcdatamodeld` and `.xcdatamodel` files, in name
    /// order), merged into one (RTCoreDataStack merges every model in the app).
    /// - Throws: ``ModelError/duplicateEntityInFiles(entity:first:second:)`` naming the entity
    ///   and both files when two define the same entity; ``ModelError/compiledModelUnsupported(path:)``
    ///   when the folder holds only compiled models; ``ModelError/modelNotFound(folder:tried:)``
    ///   when it holds none; the loader's ``ModelError`` for a bad file.
    public static func mergedModel(in folder: URL) throws -> ManagedObjectModel {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        } catch {
            // A folder that cannot be listed (absent, not a folder, unreadable) holds no model.
            throw ModelError.modelNotFound(folder: folder.path, tried: modelFileExtensions.map { "*.\($0)" })
        }
        var entities: [EntityDefinition] = []
        var warnings: [ModelWarning] = []
        var definedIn: [String: String] = [:]
        for name in names where modelFileExtensions.contains((name as NSString).pathExtension) {
            let url = folder.appendingPathComponent(name)
            let model = try loadModel(at: url)
            for entity in model.definition.entities {
                if let first = definedIn[entity.name] {
                    throw ModelError.duplicateEntityInFiles(entity: entity.name, first: first, second: url.path)
                }
                definedIn[entity.name] = url.path
            }
            entities += model.definition.entities
            warnings += model.warnings
        }
        guard !entities.isEmpty else {
            if let compiled = names.first(where: { compiledModelExtensions.contains(($0 as NSString).pathExtension) }) {
                throw ModelError.compiledModelUnsupported(path: folder.appendingPathComponent(compiled).path)
            }
            throw ModelError.modelNotFound(folder: folder.path, tried: modelFileExtensions.map { "*.\($0)" })
        }
        return try ManagedObjectModel(ModelDefinition(entities: entities), warnings: warnings)
    }
}
