/// A boxed, scrollable list of two-column entries with an optional selection: the help overlay,
/// the entity picker and the object detail view.
public struct ListOverlay: Sendable {
    /// One entry: a label column and a value column.
    public struct Entry: Hashable, Sendable {
        /// The left column (key name, attribute name).
        public var label: String
        /// The right column (what the key does, the value).
        public var value: String
        /// Whether the entry can be followed with Enter (shown with a trailing ›).
        public var isLink: Bool
        /// A group heading instead of an entry.
        public var isHeading: Bool

        /// Creates an entry.
        public init(label: String, value: String = "", isLink: Bool = false, isHeading: Bool = false) {
            self.label = label
            self.value = value
            self.isLink = isLink
            self.isHeading = isHeading
        }
    }

    /// The box title.
    public var title: String
    /// The entries.
    public var entries: [Entry]
    /// The selected entry, if the list has a cursor.
    public var selected: Int?
    /// The first entry shown.
    public var scroll: Int
    /// A footer line (key hints).
    public var footer: String

    /// Creates a list.
    public init(title: String, entries: [Entry], selected: Int? = nil, scroll: Int = 0, footer: String = "") {
        self.title = title
        self.entries = entries
        self.selected = selected
        self.scroll = scroll
        self.footer = footer
    }

    /// The rectangle the overlay takes in `area`.
    public func frame(in area: Rect) -> Rect {
        let paired = entries.filter { !$0.value.isEmpty || $0.isLink || $0.isHeading }
        let labelWidth = paired.map { DisplayWidth.of($0.label) }.max() ?? 0
        let valueWidth = paired.map { DisplayWidth.of($0.value) + ($0.isLink ? 2 : 0) }.max() ?? 0
        let loneWidth = entries.filter { $0.value.isEmpty && !$0.isLink && !$0.isHeading }.map { DisplayWidth.of($0.label) }.max() ?? 0
        let width = max(labelWidth + valueWidth + 7, loneWidth + 4, DisplayWidth.of(title) + 8, DisplayWidth.of(footer) + 4)
        return Box.centered(width: width, height: entries.count + 2 + (footer.isEmpty ? 0 : 1), in: area.inset(by: 1))
    }

    /// How many entries fit in `area` at once.
    public func pageSize(in area: Rect) -> Int { max(1, frame(in: area).height - 2 - (footer.isEmpty ? 0 : 1)) }

    /// `scroll` adjusted so the selection is visible in `area`.
    public func scrollKeepingSelection(in area: Rect) -> Int {
        guard let selected else { return min(scroll, max(0, entries.count - pageSize(in: area))) }
        let page = pageSize(in: area)
        if selected < scroll { return selected }
        if selected >= scroll + page { return selected - page + 1 }
        return scroll
    }

    /// Draws the list centred in `area`.
    public func render(into buffer: inout ScreenBuffer, area: Rect, theme: Theme) {
        let rect = frame(in: area)
        let inner = Box(title: title, style: theme[.help]).render(into: &buffer, rect: rect)
        guard !inner.isEmpty else { return }
        // Entries with a value share the label column; a lone label (a line of text) takes the width.
        let labelWidth = min(entries.filter { !$0.value.isEmpty || $0.isLink || $0.isHeading }.map { DisplayWidth.of($0.label) }.max() ?? 0, max(1, inner.width / 2))
        let page = pageSize(in: area)
        let top = scrollKeepingSelection(in: area)
        for (offset, index) in (top..<min(entries.count, top + page)).enumerated() {
            let entry = entries[index]
            let y = inner.y + offset
            var style = theme[.help]
            if entry.isHeading { style = style.adding(.bold) }
            if index == selected { style = theme[.cursor] }
            buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: style)
            if entry.isHeading {
                buffer.write(entry.label, x: inner.x + 1, y: y, style: style, maxWidth: inner.width - 1)
                continue
            }
            if entry.value.isEmpty && !entry.isLink && !entry.isHeading {
                buffer.write(DisplayWidth.truncate(entry.label, toWidth: inner.width - 2), x: inner.x + 1, y: y, style: style, maxWidth: inner.width - 1)
                continue
            }
            buffer.write(DisplayWidth.fit(entry.label, toWidth: labelWidth), x: inner.x + 1, y: y, style: style.adding(.bold), maxWidth: inner.width - 1)
            let valueX = inner.x + labelWidth + 3
            let value = entry.value + (entry.isLink ? " ›" : "")
            buffer.write(DisplayWidth.truncate(value, toWidth: max(0, inner.maxX - valueX - 1)), x: valueX, y: y, style: style)
        }
        if !footer.isEmpty {
            buffer.write(DisplayWidth.truncate(footer, toWidth: inner.width - 2), x: inner.x + 1, y: inner.maxY - 1, style: theme[.help].adding(.dim))
        }
        if entries.count > page {
            let marker = "\(top + 1)–\(min(entries.count, top + page))/\(entries.count)"
            buffer.write(marker, x: max(rect.x + 1, rect.maxX - DisplayWidth.of(marker) - 2), y: rect.maxY - 1, style: theme[.help])
        }
    }
}
