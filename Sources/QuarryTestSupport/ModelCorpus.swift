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

extension ModelCorpus {
    /// Every compiled `.momd` bundle in the corpus with the `.xcdatamodeld` it was compiled
    /// from (the bundle of the same name under the same corpus entry), sorted by path; empty
    /// when there is no corpus.
    public static func compiledBundles() -> [(compiled: URL, source: URL)] {
        guard let corpus = directory?.deletingLastPathComponent(),
              let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) else { return [] }
        var compiled: [URL] = [], sources: [URL] = []
        for case let url as URL in walker {
            if url.pathExtension == "momd" { compiled.append(url) }
            if url.pathExtension == "xcdatamodeld" { sources.append(url) }
        }
        func entry(_ url: URL) -> String {
            // The corpus entry: the first path component below the corpus's subfolder.
            let parts = url.path.dropFirst(corpus.path.count).split(separator: "/")
            return parts.prefix(2).joined(separator: "/")
        }
        return compiled.sorted { $0.path < $1.path }.compactMap { momd in
            let name = momd.deletingPathExtension().lastPathComponent
            guard let source = sources.first(where: {
                $0.deletingPathExtension().lastPathComponent == name && entry($0) == entry(momd)
            }) else { return nil }
            return (momd, source)
        }
    }
}
