import QuarryTUI

/// Text for the terminal that may span several lines: a migration plan, an import's bad rows,
/// a refused save's validation failures.
///
/// Each line is escaped on its own (``ControlEscaping``: a name from a file can never drive the
/// terminal) and the line breaks are kept, so a plan reads as a list and every
/// `FILE:LINE:COLUMN: message` stays a line of its own for editors and `grep` (escaping the
/// whole text would print the breaks as `^J`).
///
/// ```swift
/// ConsoleText.escapedLines("a.csv:2:3: bad\r\na.csv:4:1: \u{1B}[2J")  // "a.csv:2:3: bad\na.csv:4:1: ^[[2J"
/// ```
enum ConsoleText {
    /// `text` with every control character escaped except its line breaks (LF, and CR LF,
    /// which becomes LF).
    static func escapedLines(_ text: String) -> String {
        guard ControlEscaping.containsControls(text) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in ControlEscaping.escaped(String(line.hasSuffix("\r") ? line.dropLast() : line)) }
            .joined(separator: "\n")
    }
}
