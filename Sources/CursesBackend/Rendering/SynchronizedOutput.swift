/// Synchronized output (DEC private mode 2026): the terminal holds a frame back until it is
/// complete, so a large redraw never shows half drawn.
///
/// Support is decided conservatively from the environment, because a terminal that does not know
/// the mode may print it: `QUARRY_SYNC_OUTPUT=1` forces it on and `=0` off; otherwise it is on only
/// inside terminals known to implement it (tmux 3.4 or later, WezTerm, kitty, foot, Ghostty,
/// Contour, iTerm2, Alacritty, Windows Terminal... as identified by `TERM_PROGRAM`, `TERM` or their own variables).
package enum SynchronizedOutput {
    /// Begins a synchronized update.
    package static let begin: [UInt8] = Array("\u{1B}[?2026h".utf8)
    /// Ends a synchronized update: the terminal shows the frame.
    package static let end: [UInt8] = Array("\u{1B}[?2026l".utf8)

    /// Whether to wrap frames in synchronized-output mode in `environment`.
    package static func isSupported(environment: [String: String]) -> Bool {
        switch environment["QUARRY_SYNC_OUTPUT"] {
        case "1"?: return true
        case "0"?: return false
        default: break
        }
        let program = environment["TERM_PROGRAM"]?.lowercased() ?? ""
        if program == "tmux" {
            return tmuxVersionSupportsSync(environment["TERM_PROGRAM_VERSION"] ?? "")
        }
        // Inside tmux or screen the outer terminal's variables may leak through: decide by the
        // multiplexer alone.
        if environment["TMUX"] != nil { return false }
        let term = environment["TERM"] ?? ""
        if term.hasPrefix("screen") { return false }
        if ["wezterm", "iterm.app", "ghostty", "contour", "vscode", "alacritty", "kitty"].contains(program) { return true }
        if environment["KITTY_WINDOW_ID"] != nil || environment["WEZTERM_EXECUTABLE"] != nil || environment["WT_SESSION"] != nil {
            return true
        }
        return ["foot", "xterm-kitty", "xterm-ghostty", "contour", "wezterm", "alacritty"].contains { term.hasPrefix($0) }
    }

    /// Whether a tmux version string such as `3.4`, `3.5a` or `next-3.6` is at least 3.4.
    package static func tmuxVersionSupportsSync(_ version: String) -> Bool {
        let numeric = version.drop { !$0.isNumber }
        let parts = numeric.split(separator: ".", maxSplits: 1)
        guard let major = parts.first.flatMap({ Int($0) }) else { return false }
        let minor = parts.count > 1 ? Int(parts[1].prefix { $0.isNumber }) ?? 0 : 0
        return (major, minor) >= (3, 4)
    }
}
