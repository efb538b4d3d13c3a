import Foundation

/// The versions of a model, oldest first, as an `.xcdatamodeld` bundle holds them: a store
/// written with any of them is recognised by its model's version hash and migrated to the
/// current one, step by step through the versions in between when no direct mapping keeps
/// its data (Core Data cannot do this by itself; CoreStore can).
///
/// ```swift
/// let history = try ModelVersionHistory.load(xcodeBundleAt: bundleURL)
/// let stack = try PersistentStack(model: history.current, options: .init(modelVersions: history))
/// ```
public struct ModelVersionHistory: Sendable {
    /// One version: its name (the `.xcdatamodel` folder without extension) and model.
    public struct Version: Sendable {
        /// The version's name (`Model 2` for `Model 2.xcdatamodel`).
        public var name: String
        /// The version's model.
        public var model: ManagedObjectModel

        /// Creates a version.
        public init(name: String, model: ManagedObjectModel) {
            self.name = name
            self.model = model
        }
    }

    /// The versions, oldest first.
    public let versions: [Version]
    /// The position of the current version in ``versions``.
    public let currentIndex: Int
    /// The versions that could not be loaded and are left out of ``versions`` (a migration goes
    /// around them), oldest first.
    public let skipped: [SkippedVersion]

    /// The current version's model.
    public var current: ManagedObjectModel { versions[currentIndex].model }

    /// Creates a history from versions listed oldest first; `current` names the current one
    /// (the last when `nil`); `skipped` lists versions that could not be loaded.
    public init(versions: [Version], current: String? = nil, skipped: [SkippedVersion] = []) {
        precondition(!versions.isEmpty, "a model history has at least one version")
        self.versions = versions
        self.skipped = skipped
        self.currentIndex = current.flatMap { name in versions.firstIndex { $0.name == name } } ?? versions.count - 1
    }

    /// The versions that could not be loaded and sort between versions `from` and `to` (names
    /// of ``versions``): those a migration from one to the other goes around.
    public func skipped(between from: String, and to: String) -> [SkippedVersion] {
        skipped.filter { Self.isOlder(from, than: $0.name) && Self.isOlder($0.name, than: to) }
    }

    /// The position of the version whose model has `versionHash`.
    public func index(ofVersionHash versionHash: String) -> Int? {
        versions.firstIndex { $0.model.versionHash == versionHash }
    }

    /// The order of version names: numbers compared by value (`Model 2` before `Model 10`), a
    /// name before the names it prefixes (`Model` before `Model 2`).
    static func isOlder(_ a: String, than b: String) -> Bool {
        a.compare(b, options: [.numeric]) == .orderedAscending
    }
}
