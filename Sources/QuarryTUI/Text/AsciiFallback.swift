/// One-cell ASCII stand-ins for the glyphs the UI draws, for terminals whose locale cannot show
/// them (`LC_ALL=C`, any non-UTF-8 locale): sort arrows become `^` and `v`, the section marker
/// `>`, the ellipsis `.`, box drawing `+ - |`, the separator dot `.`, a bar's full block `#`
/// and its partial (eighth) blocks `+`, the summary's `Σ` `S`.
///
/// Applied per cell by the backend, after layout, so columns stay aligned: every stand-in is
/// one cell, as the glyph it replaces.
public enum AsciiFallback {
    private static let table: [String: String] = [
        "▲": "^", "▼": "v", "↑": "^", "↓": "v", "←": "<", "→": ">", "▸": ">", "›": ">",
        "…": ".", "·": ".", "•": "*", "×": "x", "–": "-", "✎": "*", "✗": "x", "⏸": "=",
        "─": "-", "│": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+", "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+",
        "█": "#", "▉": "+", "▊": "+", "▋": "+", "▌": "+", "▍": "+", "▎": "+", "▏": "+", "Σ": "S",
    ]

    /// The ASCII text to draw for the one-cell grapheme `glyph`: itself when ASCII, its stand-in
    /// when it has one, else `?`.
    public static func glyph(for glyph: String) -> String {
        if glyph.utf8.allSatisfy({ $0 < 0x80 }) { return glyph }
        return table[glyph] ?? "?"
    }
}
