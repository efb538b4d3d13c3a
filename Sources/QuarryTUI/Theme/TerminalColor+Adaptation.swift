extension TerminalColor {
    /// This colour as a terminal with `capability` can show it.
    ///
    /// - ``ColorCapability/none``: always ``TerminalColor/default``.
    /// - ``ColorCapability/ansi16``: indexed and RGB colours become the nearest ANSI colour
    ///   (indices 0–15 map to themselves).
    /// - ``ColorCapability/indexed256``: RGB colours become the nearest entry of the 6×6×6 cube or
    ///   the grey ramp (16–255).
    /// - ``ColorCapability/truecolor``: unchanged.
    ///
    /// ```swift
    /// TerminalColor.rgb(255, 0, 0).adapted(to: .indexed256)  // .indexed(196)
    /// TerminalColor.indexed(196).adapted(to: .ansi16)        // .ansi(9), bright red
    /// ```
    public func adapted(to capability: ColorCapability) -> TerminalColor {
        switch (capability, self) {
        case (.none, _):
            return .default
        case (.truecolor, _), (_, .default), (_, .ansi):
            return self
        case (.indexed256, .indexed):
            return self
        case (.indexed256, .rgb(let red, let green, let blue)):
            return .indexed(XtermPalette.nearestIndexed(to: XtermPalette.RGB(Int(red), Int(green), Int(blue))))
        case (.ansi16, .indexed(let index)):
            return .ansi(index < 16 ? index : XtermPalette.nearestANSI(to: XtermPalette.rgb(ofIndex: index)))
        case (.ansi16, .rgb(let red, let green, let blue)):
            return .ansi(XtermPalette.nearestANSI(to: XtermPalette.RGB(Int(red), Int(green), Int(blue))))
        }
    }
}
