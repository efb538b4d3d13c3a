import Foundation

extension ManagedObjectModel {
    /// Loads an Xcode Core Data model: a `.xcdatamodeld` bundle (the version named by its
    /// `.xccurrentversion`), a `.xcdatamodel` folder, or a `contents` file.
    ///
    /// A model made for Apple's Core Data loads unchanged; elements Quarry does not use become
    /// ``ModelWarning``s in ``warnings``.
    /// - Throws: ``ModelError`` naming the file (and line) at fault.
    public static func load(xcodeModelAt url: URL) throws -> ManagedObjectModel {
        let contents = try XcodeModelFiles.contentsFile(for: url)
        guard let data = FileManager.default.contents(atPath: contents.path) else { throw ModelError.fileNotFound(path: contents.path) }
        let (definition, warnings) = try ModelDefinition.fromXcodeContents(data, path: contents.path)
        return try ManagedObjectModel(definition, warnings: warnings)
    }
}

extension ModelDefinition {
    /// Parses the `contents` XML of an `.xcdatamodel`.
    /// - Parameter path: The file's path, for error messages.
    public static func fromXcodeContents(_ data: Data, path: String) throws -> (ModelDefinition, [ModelWarning]) {
        try XcodeModelParser(path: path).parse(data)
    }
}

/// Finds the `contents` file of an Xcode model bundle.
enum XcodeModelFiles {
    static func contentsFile(for url: URL) throws -> URL {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory) else { throw ModelError.fileNotFound(path: url.path) }
        guard isDirectory.boolValue else { return url }
        if url.pathExtension == "xcdatamodeld" {
            return try contentsFile(for: currentVersion(of: url))
        }
        let contents = url.appendingPathComponent("contents")
        guard fm.fileExists(atPath: contents.path) else { throw ModelError.fileNotFound(path: contents.path) }
        return contents
    }

    /// The version `.xccurrentversion` names; the only version when that file is missing.
    static func currentVersion(of bundle: URL) throws -> URL {
        let fm = FileManager.default
        let marker = bundle.appendingPathComponent(".xccurrentversion")
        if let data = fm.contents(atPath: marker.path) {
            let plist: Any
            do {
                plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            } catch {
                throw ModelError.malformedFile(path: marker.path, line: 0, column: 0, reason: "not a property list: \(error.localizedDescription)")
            }
            guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else {
                throw ModelError.malformedFile(path: marker.path, line: 0, column: 0, reason: "no _XCCurrentVersionName key")
            }
            let version = bundle.appendingPathComponent(name)
            guard fm.fileExists(atPath: version.path) else {
                throw ModelError.malformedFile(path: marker.path, line: 0, column: 0, reason: "current version '\(name)' is not in the bundle")
            }
            return version
        }
        let versions = ((try? fm.contentsOfDirectory(atPath: bundle.path)) ?? []).filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        guard versions.count == 1 else {
            throw ModelError.malformedFile(path: marker.path, line: 0, column: 0,
                                           reason: versions.isEmpty ? "no .xcdatamodel version in the bundle" : "missing, and the bundle has \(versions.count) versions")
        }
        return bundle.appendingPathComponent(versions[0])
    }
}
