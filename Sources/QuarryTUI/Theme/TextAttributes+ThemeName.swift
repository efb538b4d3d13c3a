extension TextAttributes {
    /// The attribute names a theme's `attrs` array accepts, in documentation order.
    static let themeNames: [(name: String, attribute: TextAttributes)] = [
        ("bold", .bold), ("dim", .dim), ("italic", .italic), ("underline", .underline), ("reverse", .reverse),
    ]

    /// Parses one attribute name of a theme's `attrs` array (`bold`, `dim`, `italic`, `underline`,
    /// `reverse`, case-insensitive), or `nil` when it is not one.
    public init?(themeName: String) {
        let name = themeName.lowercased()
        guard let entry = Self.themeNames.first(where: { $0.name == name }) else { return nil }
        self = entry.attribute
    }
}
