extension ColorCapability {
    /// The capability the environment announces, checked in this order:
    ///
    /// 1. `NO_COLOR` set to anything non-empty → ``none`` (see no-color.org);
    /// 2. `COLORTERM` is `truecolor` or `24bit` → ``truecolor``;
    /// 3. `TERM` contains `256color` → ``indexed256``;
    /// 4. `TERM` is `dumb` → ``none``;
    /// 5. otherwise → ``ansi16``.
    ///
    /// ```swift
    /// let capability = ColorCapability.detect(environment: ProcessInfo.processInfo.environment)
    /// let theme = resolution.theme.adapted(to: capability)
    /// ```
    public static func detect(environment: [String: String]) -> ColorCapability {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let colorTerm = environment["COLORTERM"]?.lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .truecolor }
        let term = environment["TERM"]?.lowercased() ?? ""
        if term.contains("256color") { return .indexed256 }
        if term == "dumb" { return .none }
        return .ansi16
    }
}
