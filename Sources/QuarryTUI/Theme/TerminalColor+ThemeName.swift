extension TerminalColor {
    /// The 16 ANSI colour names in palette order (index 0–15).
    static let ansiNames = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "bright-black", "bright-red", "bright-green", "bright-yellow",
        "bright-blue", "bright-magenta", "bright-cyan", "bright-white",
    ]

    /// Parses a colour as a theme file writes it in a string, or `nil` when it is not one.
    ///
    /// Accepted forms (case-insensitive):
    /// - `default`: the terminal's own colour;
    /// - one of the 16 ANSI names: `black`, `red`, `green`, `yellow`, `blue`, `magenta`, `cyan`,
    ///   `white` and their `bright-` forms (`bright-blue`);
    /// - `color0` … `color255` (or `colour…`): an xterm 256-colour index;
    /// - `#rrggbb`: 24-bit colour.
    ///
    /// ```swift
    /// TerminalColor(themeName: "bright-blue")  // .ansi(12)
    /// TerminalColor(themeName: "#268bd2")      // .rgb(0x26, 0x8b, 0xd2)
    /// ```
    public init?(themeName: String) {
        let name = themeName.lowercased()
        if name == "default" {
            self = .default
        } else if let index = Self.ansiNames.firstIndex(of: name) {
            self = .ansi(UInt8(index))
        } else if let digits = Self.dropPrefix(of: name, among: ["colour", "color"]) {
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = UInt8(digits) else { return nil }
            self = .indexed(index)
        } else if name.hasPrefix("#"), name.utf8.count == 7, name.dropFirst().allSatisfy({ $0.isASCII && $0.isHexDigit }),
            let value = UInt32(name.dropFirst(), radix: 16) {
            self = .rgb(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
        } else {
            return nil
        }
    }

    private static func dropPrefix(of name: String, among prefixes: [String]) -> Substring? {
        prefixes.first(where: name.hasPrefix).map { name.dropFirst($0.count) }
    }
}
