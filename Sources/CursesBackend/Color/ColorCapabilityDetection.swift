import QuarryTUI

/// Decides the ``ColorCapability`` from the environment and the terminal's description.
///
/// The rules, first match wins:
/// 1. `NO_COLOR` set to anything but the empty string ([no-color.org](https://no-color.org)): none.
/// 2. `COLORTERM` is `truecolor` or `24bit`: truecolor (the terminal says so itself, even when
///    its terminfo entry only advertises 256 colours).
/// 3. Otherwise the terminfo `colors` count: a direct-colour entry (2²⁴ colours, such as
///    `xterm-direct`) → truecolor, ≥ 256 → 256 colours, ≥ 8 → the ANSI 16, else none.
package enum ColorCapabilityDetection {
    /// The capability for `environment` on a terminal whose terminfo entry has
    /// `terminalColors` colours (`tigetnum("colors")`; negative or 0 when absent).
    package static func capability(environment: [String: String], terminalColors: Int) -> ColorCapability {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        // A terminal whose terminfo entry knows no colour at all cannot be told to use any.
        guard terminalColors >= 8 else { return .none }
        switch environment["COLORTERM"]?.lowercased() {
        case "truecolor", "24bit": return .truecolor
        default: break
        }
        if terminalColors >= CursesColorResolver.directColorThreshold { return .truecolor }
        if terminalColors >= 256 { return .indexed256 }
        return .ansi16
    }
}
