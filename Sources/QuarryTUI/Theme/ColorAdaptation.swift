extension Theme {
    /// This theme as the terminal can show it: without colours for ``ColorCapability/none``
    /// (attributes kept), otherwise unchanged until nearest-colour mapping lands.
    public func adapted(to capability: ColorCapability) -> Theme {
        guard capability == .none else { return self }
        var copy = self
        for slot in ThemeSlot.allCases {
            var style = copy[slot]
            style.foreground = .default
            style.background = .default
            copy[slot] = style
        }
        return copy
    }
}
