/// Text attributes a cell can carry independently of colour.
public struct TextAttributes: OptionSet, Hashable, Sendable {
    /// The raw bit set.
    public let rawValue: UInt8
    /// Creates attributes from their raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bold (or bright) text.
    public static let bold = TextAttributes(rawValue: 1 << 0)
    /// Dim text.
    public static let dim = TextAttributes(rawValue: 1 << 1)
    /// Italic text.
    public static let italic = TextAttributes(rawValue: 1 << 2)
    /// Underlined text.
    public static let underline = TextAttributes(rawValue: 1 << 3)
    /// Foreground and background swapped.
    public static let reverse = TextAttributes(rawValue: 1 << 4)
}

/// How a cell is drawn: foreground, background and attributes.
public struct CellStyle: Hashable, Sendable {
    /// The text colour.
    public var foreground: TerminalColor
    /// The cell's background colour.
    public var background: TerminalColor
    /// Bold, reverse and the like.
    public var attributes: TextAttributes

    /// Creates a style; by default the terminal's own colours and no attributes.
    public init(foreground: TerminalColor = .default, background: TerminalColor = .default, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's own colours, no attributes.
    public static let plain = CellStyle()

    /// This style with `extra` attributes added.
    public func adding(_ extra: TextAttributes) -> CellStyle {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }
}
