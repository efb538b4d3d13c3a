import Foundation

extension PersistentStack {
    /// The model files Quarry loads, in the order a named model is looked for: sources first,
    /// then compiled Core Data models.
    static let modelFileExtensions = ["json", "xcdatamodeld", "xcdatamodel", "momd", "mom"]

    /// Loads the model file at `url`: a JSON model (`.json`), an Xcode model (`.xcdatamodel`,
    /// `.xcdatamodeld`) or a compiled one (`.mom`, `.momd`).
    /// - Throws: ``ModelError/fileNotFound(path:)`` for any other extension or a missing file;
    ///   the loader's ``ModelError`` for a bad file.
    public static func loadModel(at url: URL) throws -> ManagedObjectModel {
        switch url.pathExtension {
        case "json": return try ManagedObjectModel.load(jsonAt: url)
        case "xcdatamodel", "xcdatamodeld": return try ManagedObjectModel.load(xcodeModelAt: url)
        case "momd", "mom": return try ManagedObjectModel.load(compiledModelAt: url)
        default: throw ModelError.fileNotFound(path: url.path + " (a model is a .json, .xcdatamodel, .xcdatamodeld, .momd or .mom)")
        }
    }

    /// Loads the model named `name` from `folder`, looking for `name.json`, then
    /// `name.xcdatamodeld`, `name.xcdatamodel`, `name.momd` and `name.mom`, and loading the
    /// first found.
    ///
    /// ```swift
    /// let model = try PersistentStack.loadModel(named: "Tickers", in: URL(fileURLWithPath: "Models"))
    /// ```
    /// - Throws: ``ModelError/modelNotFound(folder:tried:)`` naming `folder` and every file
    ///   name tried when nothing is there; the loader's ``ModelError`` for a bad file.
    public static func loadModel(named name: String, in folder: URL) throws -> ManagedObjectModel {
        let fm = FileManager.default
        let sources = modelFileExtensions.map { "\(name).\($0)" }
        for file in sources where fm.fileExists(atPath: folder.appendingPathComponent(file).path) {
            return try loadModel(at: folder.appendingPathComponent(file))
        }
        throw ModelError.modelNotFound(folder: folder.path, tried: sources)
    }

    /// Every model in `folder` (`.json`, `.xcdatamodeld`, `.xcdatamodel`, `.momd` and `.mom`
    /// files, in name order), merged into one (RTCoreDataStack merges every model in the app).
    /// - Throws: ``ModelError/duplicateEntityInFiles(entity:first:second:)`` naming the entity
    ///   and both files when two define the same entity; ``ModelError/modelNotFound(folder:tried:)``
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
            throw ModelError.modelNotFound(folder: folder.path, tried: modelFileExtensions.map { "*.\($0)" })
        }
        return try ManagedObjectModel(ModelDefinition(entities: entities), warnings: warnings)
    }
}
