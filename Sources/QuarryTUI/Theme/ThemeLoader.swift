import Foundation
import TOMLKit

/// Reads themes from TOML files and finds the one the user asked for.
///
/// A theme file styles the slots of ``ThemeSlot``; see `docs/themes.md` for the schema:
///
/// ```toml
/// inherits = "default"      # optional: slots and keys not given come from this theme
///
/// [cursor]
/// fg = "black"              # a name, default, 0–255, "color123" or "#rrggbb"
/// bg = "#87afd7"
/// attrs = ["bold"]          # bold, dim, italic, underline, reverse
/// ```
///
/// All functions are synchronous and may be called from any thread; they read files but keep no
/// state.
public enum ThemeLoader {
    /// Parses the text of a theme file.
    ///
    /// - Parameters:
    ///   - text: The TOML source.
    ///   - file: How errors name the file; its last path component without `.toml` is the theme's name.
    ///   - resolveInherited: Gives the theme named by `inherits`. A ``ThemeError`` it throws is
    ///     passed on unchanged (it is about another file); any other error is reported at this
    ///     file's `inherits` line with the error's description as the message.
    /// - Returns: A theme with every slot set: from this file, else the inherited theme, else plain.
    /// - Throws: ``ThemeError`` naming the file, line and key at fault.
    public static func parse(_ text: String, file: String, resolveInherited: (String) throws -> Theme) throws -> Theme {
        let locator = ThemeSourceLocator(text: text)
        try ThemeSourcePrecheck.check(text, file: file)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ThemeError(file: file, line: error.source.begin.line, message: error.description)
        }
        let definition = try ThemeDefinition(table: table, file: file, locator: locator)
        var base: Theme?
        if let inherited = definition.inherits {
            do {
                base = try resolveInherited(inherited)
            } catch let error as ThemeError {
                throw error
            } catch {
                throw definition.error(at: "inherits", String(describing: error))
            }
        }
        return definition.theme(named: themeName(forFile: file), base: base)
    }

    /// Loads the theme file at `url`, following `inherits` chains.
    ///
    /// An inherited name is looked up as `<name>.toml` next to the inheriting file, then in
    /// `searchDirectories`; a name containing `/` or ending in `.toml` is a path relative to the
    /// inheriting file. `default` falls back to ``Theme/builtInDefault`` when no file is found.
    ///
    /// - Throws: ``ThemeError`` for an unreadable file, a TOML syntax error, an unknown slot or
    ///   key, a bad colour or attribute, an unknown inherited theme or an inheritance cycle.
    public static func load(contentsOf url: URL, searchDirectories: [URL] = []) throws -> Theme {
        try ThemeFileLoader(searchDirectories: searchDirectories).load(url, inheritedBy: [])
    }

    /// The theme name for a file path: its last component without the `.toml` extension.
    static func themeName(forFile file: String) -> String {
        let last = file.split(separator: "/").last.map(String.init) ?? file
        return last.hasSuffix(".toml") ? String(last.dropLast(5)) : last
    }

    /// Whether a theme name is really a path (`./mine.toml`, `themes/x`): it contains `/` or
    /// ends in `.toml`. Any other name is looked up as `<name>.toml` in the search directories.
    public static func isPath(_ name: String) -> Bool {
        name.contains("/") || name.hasSuffix(".toml")
    }
}
