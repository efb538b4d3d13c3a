import Foundation

extension ModelVersionHistory {
    /// Loads every version of an `.xcdatamodeld` bundle, oldest first by name (numbers compared
    /// by value: `Model`, `Model 2`, …, `Model 10`), with the current version from its
    /// `.xccurrentversion`. A `.xcdatamodel` folder or `contents` file gives a one-version history.
    ///
    /// ```swift
    /// let history = try ModelVersionHistory.load(xcodeBundleAt: URL(fileURLWithPath: "Model.xcdatamodeld"))
    /// print(history.versions.map(\.name), "current:", history.versions[history.currentIndex].name)
    /// ```
    /// - Throws: ``ModelError`` naming the version file at fault.
    public static func load(xcodeBundleAt url: URL) throws -> ModelVersionHistory {
        guard url.pathExtension == "xcdatamodeld" else {
            let name = url.lastPathComponent == "contents" ? url.deletingLastPathComponent().deletingPathExtension().lastPathComponent
                : url.deletingPathExtension().lastPathComponent
            return ModelVersionHistory(versions: [Version(name: name, model: try ManagedObjectModel.load(xcodeModelAt: url))])
        }
        let current = try XcodeModelLocation.currentVersion(in: url).deletingPathExtension().lastPathComponent
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }
            .map { String($0.dropLast(".xcdatamodel".count)) }
            .sorted(by: isOlder)
        let versions = try names.map { name in
            Version(name: name, model: try ManagedObjectModel.load(xcodeModelAt: url.appendingPathComponent(name + ".xcdatamodel")))
        }
        return ModelVersionHistory(versions: versions, current: current)
    }
}
