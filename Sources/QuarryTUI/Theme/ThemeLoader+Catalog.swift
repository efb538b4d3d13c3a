import Foundation

extension ThemeLoader {
    /// The names of the themes found in `searchDirectories`: `default` (always, as it is compiled
    /// in) and the name of every `*.toml` file directly in them, sorted, each once.
    ///
    /// The directories are read on every call, so a theme file added while the browser runs is
    /// offered at the next completion. Missing or unreadable directories add nothing. A name
    /// that is not a plain name (it would be read as a path, see ``isPath(_:)``) is left out.
    ///
    /// ```swift
    /// ThemeLoader.themeNames(in: [URL(fileURLWithPath: "Themes")])
    /// // ["default", "high-contrast", "light", "solarized-dark", "solarized-light"]
    /// ```
    public static func themeNames(in searchDirectories: [URL]) -> [String] {
        var names: Set<String> = ["default"]
        for directory in searchDirectories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for file in files where file.hasSuffix(".toml") && !file.hasPrefix(".") {
                let name = themeName(forFile: file)
                if !name.isEmpty, !isPath(name) { names.insert(name) }
            }
        }
        return names.sorted()
    }

    /// Loads the theme `name` (a theme name looked up in `searchDirectories`, or a path), as
    /// the browser's `:theme NAME` does while it runs.
    ///
    /// Unlike ``resolve(name:environment:searchDirectories:)`` no environment variable is
    /// consulted: the name was typed. Never throws: a missing or malformed theme gives
    /// ``Theme/builtInDefault`` with ``ThemeResolution/problem`` saying why, and a caller that
    /// switches themes keeps the one it has then.
    public static func load(named name: String, searchDirectories: [URL]) -> ThemeResolution {
        resolve(name: name, environment: [:], searchDirectories: searchDirectories)
    }
}
