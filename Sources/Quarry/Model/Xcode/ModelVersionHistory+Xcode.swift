import Foundation

extension ModelVersionHistory {
    /// Loads every version of an `.xcdatamodeld` bundle, oldest first by name (numbers compared
    /// by value: `Model`, `Model 2`, …, `Model 10`), with the current version from its
    /// `.xccurrentversion`. A `.xcdatamodel` folder or `contents` file gives a one-version history.
    ///
    /// A version other than the current one that does not load is left out and listed in
    /// ``skipped``, so a store of another version still migrates around it (as Core Data, which
    /// loads only the versions it needs); the current version must load.
    ///
    /// ```swift
    /// let history = try ModelVersionHistory.load(xcodeBundleAt: URL(fileURLWithPath: "Model.xcdatamodeld"))
    /// print(history.versions.map(\.name), "current:", history.versions[history.currentIndex].name)
    /// for version in history.skipped { print("warning: \(version)") }
    /// ```
    /// - Throws: ``ModelError`` naming the version file at fault when the current version does
    ///   not load.
    public static func load(xcodeBundleAt url: URL) throws -> ModelVersionHistory {
        guard url.pathExtension == "xcdatamodeld" else {
            let name = url.lastPathComponent == "contents" ? url.deletingLastPathComponent().deletingPathExtension().lastPathComponent
                : url.deletingPathExtension().lastPathComponent
            return ModelVersionHistory(versions: [Version(name: name, model: try ManagedObjectModel.load(xcodeModelAt: url))])
        }
        let current = try XcodeModelLocation.currentVersion(in: url).deletingPathExtension().lastPathComponent
        let names = (try XcodeModelLocation.contents(of: url))
            .filter { $0.hasSuffix(".xcdatamodel") }
            .map { String($0.dropLast(".xcdatamodel".count)) }
            .sorted(by: isOlder)
        var versions: [Version] = []
        var skipped: [SkippedVersion] = []
        for name in names {
            let folder = url.appendingPathComponent(name + ".xcdatamodel")
            do {
                versions.append(Version(name: name, model: try ManagedObjectModel.load(xcodeModelAt: folder)))
            } catch let error as ModelError {
                let named = error.naming(version: name, at: folder)
                guard name != current else { throw named }
                skipped.append(SkippedVersion(name: name, path: folder.path, reason: error.description))
            }
        }
        return ModelVersionHistory(versions: versions, current: current, skipped: skipped)
    }
}

extension ModelError {
    /// This error as a fault of version `name` of a bundle, whose folder is `folder`: a user
    /// learns which version to fix even when the loader's error names no file.
    func naming(version name: String, at folder: URL) -> ModelError {
        .malformedFile(path: folder.path, line: 0, column: 0, reason: "version '\(name)', the bundle's current version, cannot be loaded: \(description)")
    }
}
