#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Selects the C locale curses encodes and decodes characters with.
///
/// The user's locale (`setlocale(LC_ALL, "")`) is respected. When the environment names no
/// locale at all (`LC_ALL`, `LC_CTYPE` and `LANG` all unset, as in many containers and service
/// managers) the character type falls back to `C.UTF-8`: today an unconfigured environment almost
/// always sits behind a UTF-8 terminal, and the plain C locale would show every non-ASCII
/// character as `?`.
package enum TerminalLocale {
    /// The `LC_CTYPE` to force after `setlocale(LC_ALL, "")`, or nil to keep the user's.
    package static func characterTypeOverride(environment: [String: String]) -> String? {
        let named = ["LC_ALL", "LC_CTYPE", "LANG"].contains { !(environment[$0] ?? "").isEmpty }
        return named ? nil : "C.UTF-8"
    }

    /// Whether the character type now in effect is UTF-8 (else glyphs need ASCII stand-ins).
    static var isUTF8: Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    /// Applies the user's locale, with the fallback above.
    static func apply(environment: [String: String]) {
        setlocale(LC_ALL, "")
        if let fallback = characterTypeOverride(environment: environment) {
            setlocale(LC_CTYPE, fallback)
        }
    }
}
