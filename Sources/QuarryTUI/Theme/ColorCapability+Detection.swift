extension ColorCapability {
    /// Terminfo's `colors` count of a direct-colour entry (such as `xterm-direct`): 2²⁴.
    public static let directColorCount = 1 << 24

    /// The capability the environment and the terminal's description announce; first match wins:
    ///
    /// 1. `NO_COLOR` set to anything non-empty → ``none`` ([no-color.org](https://no-color.org));
    /// 2. a terminfo `colors` count below 8 → ``none`` (a terminal that knows no colour cannot be
    ///    told to use any, whatever `COLORTERM` says);
    /// 3. `COLORTERM` is `truecolor` or `24bit` → ``truecolor`` (the terminal says so itself, even
    ///    when its terminfo entry only advertises 256 colours);
    /// 4. with a terminfo count: a direct-colour entry → ``truecolor``, ≥ 256 → ``indexed256``,
    ///    else ``ansi16``;
    /// 5. without one (`terminalColors` `nil`): `TERM` containing `256color` → ``indexed256``,
    ///    `TERM` `dumb` → ``none``, else ``ansi16``.
    ///
    /// ```swift
    /// let capability = ColorCapability.detect(environment: ProcessInfo.processInfo.environment,
    ///                                         terminalColors: Int(tigetnum("colors")))
    /// let theme = resolution.theme.adapted(to: capability)
    /// ```
    public static func detect(environment: [String: String], terminalColors: Int? = nil) -> ColorCapability {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        if let terminalColors, terminalColors < 8 { return .none }
        switch environment["COLORTERM"]?.lowercased() {
        case "truecolor", "24bit": return .truecolor
        default: break
        }
        if let terminalColors {
            if terminalColors >= directColorCount { return .truecolor }
            return terminalColors >= 256 ? .indexed256 : .ansi16
        }
        let term = environment["TERM"]?.lowercased() ?? ""
        if term.contains("256color") { return .indexed256 }
        return term == "dumb" ? .none : .ansi16
    }
}
