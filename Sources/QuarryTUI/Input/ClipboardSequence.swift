import Foundation

/// The OSC 52 sequence that puts text on the system clipboard: `ESC ] 52 ; c ; <base64> BEL`.
/// It works over ssh and, with `set-clipboard on`, through tmux (which keeps it as a buffer
/// too), since it travels in the terminal's own stream.
public enum ClipboardSequence {
    /// The sequence that copies `text` (UTF-8) to the clipboard.
    public static func make(for text: String) -> String {
        "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
    }

    /// The text a sequence made by ``make(for:)`` copies, or `nil` for anything else (tests).
    public static func text(of sequence: String) -> String? {
        guard sequence.hasPrefix("\u{1B}]52;c;"), sequence.hasSuffix("\u{07}") else { return nil }
        let payload = sequence.dropFirst(7).dropLast()
        return Data(base64Encoded: String(payload)).flatMap { String(data: $0, encoding: .utf8) }
    }
}
