extension Theme {
    /// The slots that must stand out from the rows even without colour: when a colourless
    /// terminal strips their colours they get reverse video (unless they already have it).
    static let slotsReversedWithoutColor: [ThemeSlot] = [.header, .cursor, .status]
    /// The slots that mark a row the live merge just changed: without colour they get bold and
    /// underline, so live changes stay visible under `NO_COLOR` without looking like the cursor.
    static let slotsMarkedWithoutColor: [ThemeSlot] = [.updatedFlash]

    /// This theme as a terminal with `capability` can show it.
    ///
    /// Every colour is mapped with ``TerminalColor/adapted(to:)``. Without colour
    /// (``ColorCapability/none``) attributes are kept, and the header, cursor and status slots get
    /// reverse video when they lost colours and had none, so the cursor stays visible; a flashed
    /// row gets bold and underline.
    public func adapted(to capability: ColorCapability) -> Theme {
        var copy = self
        for (slot, style) in styles {
            var adapted = style
            adapted.foreground = style.foreground.adapted(to: capability)
            adapted.background = style.background.adapted(to: capability)
            let lostColor = adapted.foreground != style.foreground || adapted.background != style.background
            if capability == .none, lostColor, Self.slotsReversedWithoutColor.contains(slot) {
                adapted.attributes.insert(.reverse)
            }
            if capability == .none, Self.slotsMarkedWithoutColor.contains(slot) {
                adapted.attributes.formUnion([.bold, .underline])
            }
            copy.styles[slot] = adapted
        }
        return copy
    }
}
