extension DisplayWidth {
    /// `text` broken into lines of at most `width` cells, so that all of it can be shown.
    ///
    /// A line breaks at its last space (which is dropped) when it has one, else between two
    /// grapheme clusters: never inside one, so a wide character or an emoji sequence moves to
    /// the next line whole. Text that fits is one line. A single character wider than `width`
    /// gets a line of its own (and still overflows it).
    ///
    /// ```swift
    /// DisplayWidth.wrap("unexpected ')' at column 12", toWidth: 16)
    /// // ["unexpected ')'", "at column 12"]
    /// ```
    public static func wrap(_ text: String, toWidth width: Int) -> [String] {
        guard width > 0, of(text) > width else { return [text] }
        var lines: [String] = []
        var start = text.startIndex  // the first character of the line being measured
        var index = start
        var used = 0
        var lastSpace: String.Index?  // where the line can break
        while index < text.endIndex {
            let character = text[index]
            let characterWidth = of(character)
            if used + characterWidth > width, index > start {
                if character == " " {
                    lines.append(String(text[start..<index]))
                    start = text.index(after: index)
                } else if let space = lastSpace {
                    lines.append(String(text[start..<space]))
                    start = text.index(after: space)
                } else {
                    lines.append(String(text[start..<index]))
                    start = index
                }
                index = start
                used = 0
                lastSpace = nil
                continue
            }
            if character == " ", index > start { lastSpace = index }
            used += characterWidth
            index = text.index(after: index)
        }
        if start < text.endIndex { lines.append(String(text[start...])) }
        return lines
    }
}
