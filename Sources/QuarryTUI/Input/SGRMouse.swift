/// xterm's SGR mouse reports (mode 1006): `ESC [ < b ; x ; y M` for a press (or wheel) and the
/// same ending in `m` for a release, with 1-based cell coordinates. Pure functions, so the
/// parsing is tested without a terminal.
public enum SGRMouse {
    /// The sequence that turns on button reporting (1000) in SGR form (1006).
    public static let enableSequence = "\u{1B}[?1000h\u{1B}[?1006h"
    /// The sequence that turns both off again.
    public static let disableSequence = "\u{1B}[?1006l\u{1B}[?1000l"
    /// What comes before the parameters: `ESC [ <`.
    public static let prefix = "\u{1B}[<"

    /// Parses the part of a report after its prefix (`0;12;5M`), or `nil` when it is not one
    /// (wrong field count, a number out of range, no final `M`/`m`). Modifier bits (Shift 4,
    /// Meta 8, Ctrl 16) are ignored; motion reports (bit 32) are not events.
    public static func parse(_ body: String) -> MouseEvent? {
        guard let final = body.last, final == "M" || final == "m" else { return nil }
        let fields = body.dropLast().split(separator: ";", omittingEmptySubsequences: false)
        guard fields.count == 3, let code = Int(fields[0]), let column = Int(fields[1]), let row = Int(fields[2]),
              (0...1023).contains(code), column >= 1, row >= 1, column <= 10_000, row <= 10_000 else { return nil }
        let button = code & ~(4 | 8 | 16)
        guard button & 32 == 0 else { return nil }
        let action: MouseEvent.Action
        switch (button, final) {
        case (64, _): action = .wheelUp
        case (65, _): action = .wheelDown
        case (_, "m"): action = .release
        case (0, _): action = .press
        default: action = .otherPress
        }
        return MouseEvent(action, x: column - 1, y: row - 1)
    }

    /// The report a terminal sends for `event` (tests use it to type a click).
    public static func report(_ event: MouseEvent) -> String {
        let code: Int
        switch event.action {
        case .press, .release: code = 0
        case .wheelUp: code = 64
        case .wheelDown: code = 65
        case .otherPress: code = 2
        }
        return prefix + "\(code);\(event.x + 1);\(event.y + 1)" + (event.action == .release ? "m" : "M")
    }
}
