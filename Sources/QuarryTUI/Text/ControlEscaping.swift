/// Makes untrusted text safe to send to a terminal: every control character is replaced by a
/// visible escape, so text from a store, a model file or a command line can never move the
/// cursor, clear the screen, retitle the window or start an escape sequence.
///
/// C0 controls and DEL use caret notation (`ESC` is `^[`, `BEL` is `^G`, DEL is `^?`); C1
/// controls (U+0080–U+009F, which some terminals obey as 8-bit escapes) become `\x9b`-style hex.
/// Every screen write (``ScreenBuffer/write(_:x:y:style:maxWidth:)``) and every message the
/// command line prints about user or stored text goes through here.
///
/// ```swift
/// ControlEscaping.escaped("\u{1B}]2;pwned\u{07}")  // "^[]2;pwned^G"
/// ```
public enum ControlEscaping {
    /// Whether `scalar` is a C0 control, DEL or a C1 control.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether `text` holds any control character (a fast scan of the UTF-8 bytes: C1 controls
    /// are encoded as `C2 80`–`C2 9F`).
    public static func containsControls(_ text: some StringProtocol) -> Bool {
        var afterC2 = false
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || (afterC2 && byte >= 0x80 && byte <= 0x9F) { return true }
            afterC2 = byte == 0xC2
        }
        return false
    }

    /// The visible escape for one control scalar, e.g. `^[` for ESC.
    public static func escape(_ scalar: Unicode.Scalar) -> String {
        let value = scalar.value
        if value < 0x20 { return "^" + String(Character(Unicode.Scalar(UInt8(value + 0x40)))) }
        if value == 0x7F { return "^?" }
        let hex = String(value, radix: 16)
        return "\\x" + (hex.count < 2 ? "0" + hex : hex)
    }

    /// `text` with every control character replaced by its visible escape; `text` itself when
    /// it holds none.
    public static func escaped(_ text: String) -> String {
        guard containsControls(text) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) { result.append(contentsOf: escape(scalar).unicodeScalars) } else { result.append(scalar) }
        }
        return String(result)
    }
}
