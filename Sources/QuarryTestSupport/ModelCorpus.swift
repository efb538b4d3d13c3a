import Foundation

/// The real-world models kept beside the worktrees (`../shared/corpus/models`), when present.
public enum ModelCorpus {
    /// The corpus folder, or `nil` when this checkout has none.
    public static var directory: URL? {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/models")
        return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
    }

    /// Every `.xcdatamodel` folder (each version of each bundle) in the corpus, sorted by path;
    /// empty when there is no corpus.
    public static func xcodeModels() -> [URL] {
        guard let directory, let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var found: [URL] = []
        for case let url as URL in walker where url.pathExtension == "xcdatamodel" { found.append(url) }
        return found.sorted { $0.path < $1.path }
    }

    /// Every `.xcdatamodeld` bundle with more than one version anywhere in the corpus (models and
    /// the bundles beside Core Data stores), sorted by path; empty when there is no corpus.
    public static func versionedBundles() -> [URL] {
        guard let corpus = directory?.deletingLastPathComponent(),
              let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) else { return [] }
        var found: [URL] = []
        for case let url as URL in walker where url.pathExtension == "xcdatamodeld" {
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.filter { $0.hasSuffix(".xcdatamodel") } ?? []
            if versions.count > 1 { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }
}
