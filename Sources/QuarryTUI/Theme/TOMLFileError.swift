/// What is wrong with a TOML file Quarry reads (a theme, a cell formats file), and where.
///
/// Its description is the conventional `file:line: ...` form editors can jump to:
///
/// ```text
/// Themes/bad.toml:4: key 'cursor.fg': unknown colour 'blurple'
/// ```
public struct TOMLFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file as the user would name it (relative to the current directory when inside it).
    public var file: String
    /// The 1-based line of the offending key or syntax error, when known.
    public var line: Int?
    /// The dotted key at fault (`cursor.fg`, `inherits`, `Ticker.price.number`), when the
    /// error is about one key.
    public var key: String?
    /// What is wrong, in words a user can act on.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `file:line: key 'k': message`, leaving out the parts that are not known.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let key { text += "key '\(key)': " }
        return text + message
    }
}

/// What is wrong with a theme file, and where (see ``TOMLFileError``).
public typealias ThemeError = TOMLFileError
