import Foundation

/// Finds the `contents` XML file inside Xcode's model folders.
enum XcodeModelLocation {
    /// The names in the folder `url` (a model bundle): an unreadable folder is an error naming
    /// it, never an empty bundle.
    static func contents(of url: URL) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw ModelError.malformedFile(path: url.path, line: 0, column: 0, reason: "cannot list the folder: \(error.localizedDescription)")
        }
    }

    /// The key of `.xccurrentversion` that names the current version folder.
    static let currentVersionKey = "_XCCurrentVersionName"

    /// The `contents` file that `url` (a `.xcdatamodeld` folder, a `.xcdatamodel` folder or a
    /// `contents` file) stands for.
    static func contentsFile(for url: URL) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelError.fileNotFound(path: url.path)
        }
        try ModelFileCheck.requireFileOrFolder(url)
        guard isDirectory.boolValue else { return url }
        let model = url.pathExtension == "xcdatamodeld" ? try currentVersion(in: url) : url
        let contents = model.appendingPathComponent("contents")
        guard FileManager.default.fileExists(atPath: contents.path) else {
            throw XcodeLegacyModel.missingContents(in: model)
        }
        return contents
    }

    /// The `.xcdatamodel` folder of a versioned model's current version.
    static func currentVersion(in bundle: URL) throws -> URL {
        let marker = bundle.appendingPathComponent(".xccurrentversion")
        if FileManager.default.fileExists(atPath: marker.path) {
            let name = try currentVersionName(in: marker)
            let version = bundle.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: version.path) else {
                throw ModelError.fileNotFound(path: version.path)
            }
            return version
        }
        let names = (try XcodeModelLocation.contents(of: bundle))
            .filter { $0.hasSuffix(".xcdatamodel") }
            .sorted()
        guard names.count == 1 else {
            let reason = names.isEmpty
                ? "contains no .xcdatamodel version"
                : "has \(names.count) versions (\(names.joined(separator: ", "))) and no .xccurrentversion naming the current one"
            throw ModelError.malformedFile(path: bundle.path, line: 0, column: 0, reason: reason)
        }
        return bundle.appendingPathComponent(names[0])
    }

    /// The version folder name recorded in an `.xccurrentversion` property list.
    private static func currentVersionName(in marker: URL) throws -> String {
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: marker), format: nil)
        } catch {
            throw ModelError.malformedFile(path: marker.path, line: 0, column: 0, reason: "not a property list: \(error)")
        }
        guard let name = (plist as? [String: Any])?[currentVersionKey] as? String, !name.isEmpty else {
            throw ModelError.malformedFile(
                path: marker.path, line: 0, column: 0, reason: "has no \(currentVersionKey) string")
        }
        return name
    }
}
