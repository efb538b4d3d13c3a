import Foundation

/// Loads theme files and the files they inherit from, detecting cycles.
struct ThemeFileLoader {
    /// Why an inherited theme could not be found; reported at the `inherits` key.
    enum LookupFailure: Error, CustomStringConvertible {
        case notFound(name: String, searched: [URL])
        case cycle([URL])

        var description: String {
            switch self {
            case .notFound(let name, let searched):
                let places = searched.map { ThemeFileLoader.displayPath($0) }.joined(separator: ", ")
                return "unknown theme '\(name)' (looked for \(name).toml in \(places))"
            case .cycle(let files):
                return "inheritance cycle: " + files.map { ThemeLoader.themeName(forFile: $0.path) }.joined(separator: " → ")
            }
        }
    }

    /// Where inherited names are looked up after the inheriting file's own directory.
    var searchDirectories: [URL]

    /// Loads `url`; `chain` holds the files whose `inherits` led here, outermost first.
    func load(_ url: URL, inheritedBy chain: [URL]) throws -> Theme {
        let file = url.standardizedFileURL
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: file.path) ? "cannot read the theme file" : "no such theme file"
            throw ThemeError(file: Self.displayPath(file), message: reason)
        }
        return try ThemeLoader.parse(text, file: Self.displayPath(file)) { name in
            let directory = file.deletingLastPathComponent()
            guard let next = Self.locate(name, in: [directory] + searchDirectories, relativeTo: directory),
                FileManager.default.fileExists(atPath: next.path)
            else {
                if name == "default" { return .builtInDefault }
                throw LookupFailure.notFound(name: name, searched: [directory] + searchDirectories)
            }
            let visited = chain + [file]
            if visited.contains(next) { throw LookupFailure.cycle(visited + [next]) }
            return try load(next, inheritedBy: visited)
        }
    }

    /// The file a theme name refers to: a path (relative to `base`, whether or not it exists),
    /// else the first existing `<name>.toml` in `directories`.
    static func locate(_ name: String, in directories: [URL], relativeTo base: URL?) -> URL? {
        if ThemeLoader.isPath(name) {
            let expanded = (name as NSString).expandingTildeInPath
            return URL(fileURLWithPath: expanded, relativeTo: base).standardizedFileURL
        }
        return directories
            .map { $0.appendingPathComponent("\(name).toml").standardizedFileURL }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// `url`'s path relative to the current directory when inside it, else absolute.
    static func displayPath(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let current = FileManager.default.currentDirectoryPath
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
