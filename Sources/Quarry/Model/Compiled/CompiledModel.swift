import Foundation

/// Loads compiled Core Data models: a `.mom` file (what Xcode's model compiler writes for one
/// `.xcdatamodel`: a binary property list written by `NSKeyedArchiver`, the same archive a
/// store keeps in `Z_MODELCACHE`) and a `.momd` bundle (a folder of `.mom` files, one per
/// version, with `VersionInfo.plist` naming the current one). Both go through the archive
/// decoder of ``CoreDataModelCache``; `.omo` files (Xcode's optimized form, a private
/// format) are ignored, as every version also has its `.mom`.
enum CompiledModel {
    /// The key of `VersionInfo.plist` naming the current version.
    static let currentVersionKey = "NSManagedObjectModel_CurrentVersionName"
    /// The largest `.mom` read (16 MiB; real ones are tens of kilobytes).
    static let sizeLimit = 16 << 20

    /// The model in the `.mom` file or `.momd` bundle at `url` (its current version).
    /// - Throws: ``ModelError`` naming the file: missing, not a regular file, too large, not a
    ///   keyed archive, truncated, or a model that does not validate.
    static func load(_ url: URL) throws -> ManagedObjectModel {
        try loadFile(url.pathExtension == "momd" ? currentVersionFile(in: url) : url)
    }

    /// Every version of the `.momd` bundle at `url`, oldest first by name, the current one from
    /// `VersionInfo.plist`; a `.mom` file gives a one-version history. A version other than the
    /// current one that does not load is left out and listed in ``ModelVersionHistory/skipped``.
    static func history(_ url: URL) throws -> ModelVersionHistory {
        guard url.pathExtension == "momd" else {
            return ModelVersionHistory(versions: [.init(name: url.deletingPathExtension().lastPathComponent, model: try loadFile(url))])
        }
        let current = try currentVersionFile(in: url).deletingPathExtension().lastPathComponent
        let names = try versionFiles(in: url).map { ($0 as NSString).deletingPathExtension }.sorted(by: ModelVersionHistory.isOlder)
        var versions: [ModelVersionHistory.Version] = []
        var skipped: [SkippedVersion] = []
        for name in names {
            let file = url.appendingPathComponent(name + ".mom")
            do {
                versions.append(.init(name: name, model: try loadFile(file)))
            } catch let error as ModelError {
                guard name != current else { throw error }
                skipped.append(SkippedVersion(name: name, path: file.path, reason: error.description))
            }
        }
        return ModelVersionHistory(versions: versions, current: current, skipped: skipped)
    }

    /// The `.mom` files of a bundle, by name.
    private static func versionFiles(in bundle: URL) throws -> [String] {
        try XcodeModelLocation.contents(of: bundle).filter { $0.hasSuffix(".mom") }.sorted()
    }

    /// The current version's `.mom` in `bundle`: the one `VersionInfo.plist` names, or the only
    /// one when the bundle has no `VersionInfo.plist`.
    static func currentVersionFile(in bundle: URL) throws -> URL {
        guard FileKind(path: bundle.path).kind == .directory else {
            if FileKind(path: bundle.path).kind == .missing { throw ModelError.fileNotFound(path: bundle.path) }
            throw ModelError.malformedFile(path: bundle.path, line: 0, column: 0, reason: "\(FileKind(path: bundle.path)), not a .momd folder")
        }
        let info = bundle.appendingPathComponent("VersionInfo.plist")
        let files = try versionFiles(in: bundle)
        guard FileKind(path: info.path).kind != .missing else {
            guard files.count == 1 else {
                throw ModelError.malformedFile(path: bundle.path, line: 0, column: 0,
                                               reason: "no VersionInfo.plist to name the current version among \(files.count) .mom files")
            }
            return bundle.appendingPathComponent(files[0])
        }
        let plist = try read(info)
        let name: String
        do {
            let object = try PropertyListSerialization.propertyList(from: plist, format: nil)
            guard let found = (object as? [String: Any])?[currentVersionKey] as? String, !found.isEmpty else {
                throw ModelError.malformedFile(path: info.path, line: 0, column: 0, reason: "no \(currentVersionKey) names the current version")
            }
            name = found
        } catch let error as ModelError {
            throw error
        } catch {
            throw ModelError.malformedFile(path: info.path, line: 0, column: 0, reason: "not a property list: \(ModelFileCheck.reason(error))")
        }
        guard !name.contains("/"), files.contains(name + ".mom") else {
            throw ModelError.malformedFile(path: info.path, line: 0, column: 0,
                                           reason: "the current version '\(name)' has no \(name).mom in the bundle")
        }
        return bundle.appendingPathComponent(name + ".mom")
    }

    /// The model in one `.mom` file.
    static func loadFile(_ url: URL) throws -> ManagedObjectModel {
        try model(fromMom: try read(url), path: url.path)
    }

    /// The model in the bytes of a `.mom` file, whose path (for messages) is `path`.
    static func model(fromMom data: Data, path: String) throws -> ManagedObjectModel {
        do {
            return try CoreDataModelCache.model(fromArchive: data)
        } catch {
            throw ModelError.malformedFile(path: path, line: 0, column: 0, reason: "not a compiled Core Data model: \(error)")
        }
    }

    /// The bytes of the regular file at `url`, at most ``sizeLimit``.
    private static func read(_ url: URL) throws -> Data {
        let found = FileKind(path: url.path)
        switch found.kind {
        case .missing: throw ModelError.fileNotFound(path: url.path)
        case .regularFile: break
        default: throw ModelError.malformedFile(path: url.path, line: 0, column: 0, reason: "\(found), not a compiled model file")
        }
        if let size = found.size, size > Int64(sizeLimit) {
            throw ModelError.malformedFile(path: url.path, line: 0, column: 0, reason: "\(size) bytes, more than a compiled model's \(sizeLimit)")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw ModelError.malformedFile(path: url.path, line: 0, column: 0, reason: "cannot read: \(ModelFileCheck.reason(error))")
        }
    }
}

extension ManagedObjectModel {
    /// Loads a compiled Core Data model: a `.mom` file or a `.momd` bundle (its current
    /// version, as `VersionInfo.plist` names it).
    ///
    /// ```swift
    /// let model = try ManagedObjectModel.load(compiledModelAt: URL(fileURLWithPath: "Model.momd"))
    /// ```
    /// - Throws: ``ModelError`` naming the file at fault.
    public static func load(compiledModelAt url: URL) throws -> ManagedObjectModel {
        try CompiledModel.load(url)
    }

    /// The model in the bytes of a `.mom` file (a bundle's resource, a download), named
    /// `path` in messages.
    /// - Throws: ``ModelError/malformedFile(path:line:column:reason:)`` when the bytes are not
    ///   a keyed archive of a model, or the model does not validate.
    public static func load(compiledModelData data: Data, path: String = "<data>") throws -> ManagedObjectModel {
        try CompiledModel.model(fromMom: data, path: path)
    }
}

extension ModelVersionHistory {
    /// Loads every version of a `.momd` bundle (a `.mom` gives one version), oldest first by
    /// name, the current one from `VersionInfo.plist`: what a store of any of them migrates
    /// with, as an `.xcdatamodeld` bundle's history.
    /// - Throws: ``ModelError`` naming the file at fault when the current version does not load.
    public static func load(compiledBundleAt url: URL) throws -> ModelVersionHistory {
        try CompiledModel.history(url)
    }
}
