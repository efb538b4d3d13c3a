import TOMLKit

/// One theme file's content before inheritance: the theme it names in `inherits` and the keys it
/// sets for each slot. Reading it checks every key, so only valid definitions exist.
struct ThemeDefinition {
    /// The keys a theme file may have at the top level besides the slot tables.
    static let topLevelKeys = ["inherits", "description"]
    /// The keys a slot table may have.
    static let slotKeys = ["fg", "bg", "attrs"]

    /// What one slot table sets; a key it leaves out keeps the inherited (or plain) value.
    struct SlotOverride {
        var foreground: TerminalColor?
        var background: TerminalColor?
        var attributes: TextAttributes?

        func applied(to style: CellStyle) -> CellStyle {
            CellStyle(
                foreground: foreground ?? style.foreground,
                background: background ?? style.background,
                attributes: attributes ?? style.attributes
            )
        }
    }

    /// The name of the theme this one starts from, if any.
    var inherits: String?
    /// The slots this file sets.
    var overrides: [ThemeSlot: SlotOverride] = [:]

    private let file: String
    private let locator: ThemeSourceLocator

    /// Reads and checks a parsed TOML document. Keys are checked in sorted order so the same
    /// file always reports the same first error.
    init(table: TOMLTable, file: String, locator: ThemeSourceLocator) throws(ThemeError) {
        self.file = file
        self.locator = locator
        for key in table.keys.sorted() {
            guard let value = table[key] else { continue }
            switch key {
            case "inherits":
                guard let name = value.string, !name.isEmpty else {
                    throw error(at: key, "must be a theme name in quotes, like inherits = \"default\"")
                }
                inherits = name
            case "description":
                guard value.string != nil else { throw error(at: key, "must be a string") }
            default:
                try readSlot(key, value)
            }
        }
    }

    /// The theme this definition describes on top of `base` (or of plain styles), with every slot set.
    func theme(named name: String, base: Theme?) -> Theme {
        var styles: [ThemeSlot: CellStyle] = [:]
        for slot in ThemeSlot.allCases {
            let inherited = base?[slot] ?? .plain
            styles[slot] = overrides[slot]?.applied(to: inherited) ?? inherited
        }
        return Theme(name: name, styles: styles)
    }

    /// The error for `key`, located at its line in the source.
    func error(at key: String, _ message: String) -> ThemeError {
        ThemeError(file: file, line: locator.line(ofKey: key), key: key, message: message)
    }

    private mutating func readSlot(_ key: String, _ value: any TOMLValueConvertible) throws(ThemeError) {
        guard let slot = ThemeSlot(rawValue: key) else {
            let slots = ThemeSlot.allCases.map(\.rawValue).joined(separator: ", ")
            if value.table != nil { throw error(at: key, "unknown slot (slots are \(slots))") }
            let known = (Self.topLevelKeys + ["the slot tables"]).joined(separator: ", ")
            throw error(at: key, "unknown key (a theme has \(known))")
        }
        guard let table = value.table else {
            throw error(at: key, "a slot must be a table, like [\(key)] followed by fg, bg and attrs")
        }
        var override = SlotOverride()
        for name in table.keys.sorted() {
            guard let setting = table[name] else { continue }
            let path = "\(key).\(name)"
            switch name {
            case "fg": override.foreground = try color(setting, at: path)
            case "bg": override.background = try color(setting, at: path)
            case "attrs": override.attributes = try attributes(setting, at: path)
            default: throw error(at: path, "unknown key (a slot has \(Self.slotKeys.joined(separator: ", ")))")
            }
        }
        overrides[slot] = override
    }

    private func color(_ value: any TOMLValueConvertible, at path: String) throws(ThemeError) -> TerminalColor {
        if let index = value.int {
            guard (0...255).contains(index) else { throw error(at: path, "colour index \(index) is not in 0–255") }
            return .indexed(UInt8(index))
        }
        let forms = "a name like bright-blue or default, an index 0–255, \"color123\" or \"#rrggbb\""
        guard let name = value.string else { throw error(at: path, "a colour is \(forms)") }
        guard let color = TerminalColor(themeName: name) else {
            throw error(at: path, "unknown colour '\(name)' (use \(forms))")
        }
        return color
    }

    private func attributes(_ value: any TOMLValueConvertible, at path: String) throws(ThemeError) -> TextAttributes {
        let known = TextAttributes.themeNames.map(\.name).joined(separator: ", ")
        guard let array = value.array else { throw error(at: path, "attributes are an array like [\"bold\", \"reverse\"]") }
        var attributes: TextAttributes = []
        for element in array {
            guard let name = element.string else { throw error(at: path, "attributes are strings (\(known))") }
            guard let attribute = TextAttributes(themeName: name) else {
                throw error(at: path, "unknown attribute '\(name)' (use \(known))")
            }
            attributes.formUnion(attribute)
        }
        return attributes
    }
}
