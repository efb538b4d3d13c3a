extension DisplayWidth {
    /// `text` cut to at most `width` cells; when it had to be cut, it ends with `ellipsis`.
    ///
    /// Never cuts inside a grapheme cluster. The ellipsis follows the last whole character that
    /// fits, so a wide character that would straddle the edge is dropped and the result may be
    /// one cell short of `width`. When even the ellipsis does not fit, the text is cut without it.
    ///
    /// ```swift
    /// DisplayWidth.truncate("東京タワー", toWidth: 5)  // "東京…" (4 + 1 cells)
    /// DisplayWidth.truncate("東京タワー", toWidth: 6)  // "東京…" (the half of タ is dropped)
    /// ```
    public static func truncate(_ text: String, toWidth width: Int, ellipsis: Character = "…") -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let ellipsisWidth = of(ellipsis)
        guard ellipsisWidth <= width else { return prefix(of: text, fitting: width) }
        return prefix(of: text, fitting: width - ellipsisWidth) + String(ellipsis)
    }

    /// `text` cut to `width` cells (with an ellipsis when cut) and padded with spaces to exactly `width`.
    public static func fit(_ text: String, toWidth width: Int, alignment: TextAlignment = .leading) -> String {
        let cut = truncate(text, toWidth: width)
        let padding = String(repeating: " ", count: max(0, width - of(cut)))
        switch alignment {
        case .leading: return cut + padding
        case .trailing: return padding + cut
        }
    }

    /// `text` cut on its left to at most `width` cells; when it had to be cut, it starts with
    /// `ellipsis` (`…53.25`). Never cuts inside a grapheme cluster.
    public static func truncateLeading(_ text: String, toWidth width: Int, ellipsis: Character = "…") -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let room = of(ellipsis) <= width ? width - of(ellipsis) : width
        var used = 0
        var start = text.endIndex
        while start > text.startIndex {
            let previous = text.index(before: start)
            let characterWidth = of(text[previous])
            if used + characterWidth > room { break }
            used += characterWidth
            start = previous
        }
        return (room < width ? String(ellipsis) : "") + String(text[start...])
    }

    /// The longest prefix of whole grapheme clusters that fits in `width` cells.
    private static func prefix(of text: String, fitting width: Int) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(text.prefix(width)) }
        var used = 0
        var end = text.startIndex
        while end < text.endIndex {
            let next = text.index(after: end)
            let characterWidth = of(text[end])
            if used + characterWidth > width { break }
            used += characterWidth
            end = next
        }
        return String(text[..<end])
    }
}
