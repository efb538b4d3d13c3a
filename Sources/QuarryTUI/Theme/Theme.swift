/// A semantic place in the UI that a theme gives a style to.
public enum ThemeSlot: String, CaseIterable, Hashable, Sendable {
    /// The title bar and the table's column headers.
    case header
    /// An ordinary row.
    case row
    /// Every other row, for legibility.
    case alternateRow = "alternate-row"
    /// The row under the cursor.
    case cursor
    /// A section header row.
    case section
    /// A row the live merge just updated (shown briefly).
    case updatedFlash = "updated-flash"
    /// A field or row with unsaved edits.
    case pendingEdit = "pending-edit"
    /// Error messages (bad filter, validation).
    case error
    /// The status line.
    case status
    /// The help overlay.
    case help
}

/// A named set of styles, one per ``ThemeSlot``.
public struct Theme: Hashable, Sendable {
    /// The theme's name (`default`, `light`, ...).
    public var name: String
    /// The style of each slot; a slot missing here is drawn ``CellStyle/plain``.
    public var styles: [ThemeSlot: CellStyle]

    /// Creates a theme.
    public init(name: String, styles: [ThemeSlot: CellStyle]) {
        self.name = name
        self.styles = styles
    }

    /// The style for `slot`.
    public subscript(slot: ThemeSlot) -> CellStyle {
        get { styles[slot] ?? .plain }
        set { styles[slot] = newValue }
    }
}
