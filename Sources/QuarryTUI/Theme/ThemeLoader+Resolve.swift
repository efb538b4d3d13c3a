import Foundation

extension ThemeLoader {
    /// The theme to start with: the one named by `--theme`, else `QUARRY_THEME`, else `default`.
    ///
    /// A name containing `/` or ending in `.toml` is a path (relative to the current directory);
    /// any other name is looked up as `<name>.toml` in `searchDirectories`, in order. `default`
    /// is the compiled-in ``Theme/builtInDefault`` when no file is found.
    ///
    /// Never throws: when the theme is missing or malformed the result is ``Theme/builtInDefault``
    /// with ``ThemeResolution/problem`` saying why, so the browser starts anyway.
    ///
    /// ```swift
    /// let environment = ProcessInfo.processInfo.environment
    /// let directories = ThemeLoader.defaultSearchDirectories(environment: environment, executableURL: Bundle.main.executableURL)
    /// let resolution = ThemeLoader.resolve(name: options.theme, environment: environment, searchDirectories: directories)
    /// if let problem = resolution.problem { statusLine.show(problem.description) }
    /// ```
    public static func resolve(name: String?, environment: [String: String], searchDirectories: [URL]) -> ThemeResolution {
        let requested = [name, environment["QUARRY_THEME"]].compactMap { $0 }.first { !$0.isEmpty } ?? "default"
        let file = ThemeFileLoader.locate(requested, in: searchDirectories, relativeTo: nil)
        do {
            if let file {
                return ThemeResolution(theme: try load(contentsOf: file, searchDirectories: searchDirectories))
            }
            if requested == "default" { return ThemeResolution(theme: .builtInDefault) }
            let places = searchDirectories.map { ThemeFileLoader.displayPath($0) }.joined(separator: ", ")
            let problem = ThemeError(file: "\(requested).toml", message: "no theme named '\(requested)' (looked in \(places))")
            return ThemeResolution(theme: .builtInDefault, problem: problem)
        } catch let error as ThemeError {
            return ThemeResolution(theme: .builtInDefault, problem: error)
        } catch {
            let path = file.map { ThemeFileLoader.displayPath($0) } ?? requested
            return ThemeResolution(theme: .builtInDefault, problem: ThemeError(file: path, message: String(describing: error)))
        }
    }

    /// Where themes are looked for, in order:
    ///
    /// 1. `$XDG_CONFIG_HOME/quarry/themes`, or `~/.config/quarry/themes` (the user's own themes);
    /// 2. the nearest `Themes` folder next to the executable or in an ancestor of its directory
    ///    (so `.build/release/quarry` inside a clone finds the clone's `Themes/`);
    /// 3. `Themes/` in the current directory.
    ///
    /// Only the executable's `Themes` folder must exist to be listed; the others are listed
    /// anyway and simply hold no file when missing. Duplicates are removed.
    public static func defaultSearchDirectories(environment: [String: String], executableURL: URL?) -> [URL] {
        var directories: [URL] = [userThemesDirectory(environment: environment)]
        if let executableURL, let shipped = themesDirectory(near: executableURL) { directories.append(shipped) }
        directories.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Themes"))
        var seen: Set<String> = []
        return directories.map(\.standardizedFileURL).filter { seen.insert($0.path).inserted }
    }

    private static func userThemesDirectory(environment: [String: String]) -> URL {
        let configHome: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = URL(fileURLWithPath: xdg)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            configHome = URL(fileURLWithPath: home).appendingPathComponent(".config")
        }
        return configHome.appendingPathComponent("quarry").appendingPathComponent("themes")
    }

    /// The nearest `Themes` directory in the executable's directory or one of its ancestors.
    private static func themesDirectory(near executableURL: URL) -> URL? {
        var directory = (executableURL.resolvingSymlinksInPath().path as NSString).deletingLastPathComponent
        while true {
            let candidate = (directory as NSString).appendingPathComponent("Themes")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                return URL(fileURLWithPath: candidate, isDirectory: true)
            }
            let parent = (directory as NSString).deletingLastPathComponent
            if parent == directory || parent.isEmpty { return nil }
            directory = parent
        }
    }
}
