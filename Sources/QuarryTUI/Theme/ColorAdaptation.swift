extension Theme {
    /// The slots that must stand out from the rows even without colour: when a colourless
    /// terminal strips their colours they get reverse video (unless they already have it).
    static let slotsReversedWithoutColor: [ThemeSlot] = [.header, .cursor, .status]

    /// This theme as a terminal with `capability` can show it.
    ///
    /// Every colour is mapped with ``TerminalColor/adapted(to:)``. Without colour
    /// (``ColorCapability/none``) attributes are kept, and the header, cursor and status slots get
    /// reverse video when they lost colours and had none, so the cursor stays visible.
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
            copy.styles[slot] = adapted
        }
        return copy
    }
}
