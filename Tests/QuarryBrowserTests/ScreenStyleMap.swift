import QuarryTUI

/// The styles of a screen's cells as text, for a golden beside the screen's text: one letter a
/// cell, the same letter for the same style (letters given in order of first appearance), then
/// a legend naming each letter's style by its theme slot (`b  cursor`), by a slot and the
/// attributes added to it (`c  status + bold`), or else by its colours and attributes.
enum ScreenStyleMap {
    /// The letters given to styles, in order.
    private static let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    /// The attribute names, as themes write them.
    private static let attributeNames: [(String, TextAttributes)] = [
        ("bold", .bold), ("dim", .dim), ("italic", .italic), ("underline", .underline), ("reverse", .reverse),
    ]

    /// `buffer`'s style map and legend, its styles named after `theme`'s slots.
    static func text(of buffer: ScreenBuffer, theme: Theme) -> String {
        var styles: [CellStyle] = []
        var rows: [String] = []
        for y in 0..<buffer.size.height {
            var row = ""
            for x in 0..<buffer.size.width {
                let style = buffer[x, y].style
                let index = styles.firstIndex(of: style) ?? {
                    styles.append(style)
                    return styles.count - 1
                }()
                row.append(index < letters.count ? letters[index] : "?")
            }
            rows.append(row)
        }
        let legend = styles.enumerated().map { index, style in
            "\(index < letters.count ? letters[index] : "?")  \(describe(style, theme: theme))"
        }
        return (rows + [""] + legend).joined(separator: "\n")
    }

    /// `style` by its theme slot, a slot and the attributes added, or its colours.
    private static func describe(_ style: CellStyle, theme: Theme) -> String {
        if let slot = ThemeSlot.allCases.first(where: { theme[$0] == style }) { return slot.rawValue }
        if let slot = ThemeSlot.allCases.first(where: { theme[$0].adding(style.attributes) == style }) {
            return slot.rawValue + " + " + names(of: style.attributes.subtracting(theme[slot].attributes))
        }
        let attributes = style.attributes.isEmpty ? "" : " " + names(of: style.attributes)
        return "fg \(name(of: style.foreground)), bg \(name(of: style.background))" + attributes
    }

    private static func names(of attributes: TextAttributes) -> String {
        attributeNames.filter { attributes.contains($0.1) }.map(\.0).joined(separator: " ")
    }

    private static func name(of color: TerminalColor) -> String {
        switch color {
        case .default: return "default"
        case .ansi(let n): return "ansi \(n)"
        case .indexed(let n): return "colour \(n)"
        case .rgb(let r, let g, let b): return "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }
}
