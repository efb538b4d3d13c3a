extension Theme {
    /// The default theme, compiled in so a lone binary works without `Themes/`.
    ///
    /// It uses the terminal's own background (`default`) and equals `Themes/default.toml`.
    public static let builtInDefault = Theme(name: "default", styles: [
        .header: CellStyle(foreground: .ansi(15), background: .ansi(4), attributes: [.bold]),
        .row: CellStyle(),
        .alternateRow: CellStyle(foreground: .default, background: .indexed(235)),
        .cursor: CellStyle(foreground: .ansi(0), background: .ansi(6), attributes: [.reverse]),
        .section: CellStyle(foreground: .ansi(11), attributes: [.bold]),
        .updatedFlash: CellStyle(foreground: .ansi(0), background: .ansi(3)),
        .pendingEdit: CellStyle(foreground: .ansi(13), attributes: [.bold]),
        .error: CellStyle(foreground: .ansi(9), attributes: [.bold]),
        .status: CellStyle(foreground: .ansi(0), background: .ansi(7)),
        .help: CellStyle(foreground: .ansi(15), background: .ansi(8)),
    ])
}
