extension Theme {
    /// The default theme, compiled in so a lone binary works without `Themes/`.
    ///
    /// It uses only the 16 ANSI colours (so the user's terminal palette decides the exact shades)
    /// and the terminal's own colours (`default`) for rows, so it reads well on dark and light
    /// terminals alike. It equals `Themes/default.toml`, which a test checks.
    public static let builtInDefault = Theme(name: "default", styles: [
        .header: CellStyle(foreground: .ansi(15), background: .ansi(4), attributes: [.bold]),
        .row: CellStyle(),
        .alternateRow: CellStyle(),
        .cursor: CellStyle(foreground: .ansi(0), background: .ansi(6)),
        .section: CellStyle(attributes: [.bold, .underline]),
        .updatedFlash: CellStyle(foreground: .ansi(0), background: .ansi(3)),
        .pendingEdit: CellStyle(foreground: .ansi(5), attributes: [.bold]),
        .error: CellStyle(foreground: .ansi(15), background: .ansi(1), attributes: [.bold]),
        .status: CellStyle(foreground: .ansi(0), background: .ansi(7)),
        .help: CellStyle(foreground: .ansi(15), background: .ansi(8)),
    ])
}
