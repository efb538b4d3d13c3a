import CNCurses
import QuarryTUI

/// Turns what `wget_wch` returns into a ``Key``, with no terminal involved.
///
/// `wget_wch` yields either a character (`OK`, a Unicode scalar value) or a key code
/// (`KEY_CODE_YES`, one of the `KEY_*` constants that `keypad` decodes from escape sequences).
/// This type is a pure function of that pair, so the mapping is unit-tested without curses.
package enum KeyDecoder {
    /// One unit of input as `wget_wch` reports it.
    package enum Input: Hashable, Sendable {
        /// A character: a Unicode scalar value or a C0 control code.
        case character(UInt32)
        /// A curses key code such as `KEY_UP` (reported with `KEY_CODE_YES`).
        case keyCode(Int32)
    }

    /// What an input means to the backend.
    package enum Decoded: Hashable, Sendable {
        /// A key for the application.
        case key(Key)
        /// The terminal was resized (`KEY_RESIZE`): re-query the size.
        case resize
        /// Nothing the application handles (unknown key codes, NUL, C1 controls, ...).
        case ignored
    }

    /// Decodes one input.
    ///
    /// Control codes 1–26 become ``Key/control(_:)`` with the lowercase letter, except those a
    /// terminal sends for dedicated keys: Backspace (8 and 127), Tab (9), Enter (10 and 13, the
    /// latter because `nonl()` keeps carriage returns). 27 is Escape; curses already waited
    /// `ESCDELAY` to tell a lone Escape from the start of a sequence.
    package static func decode(_ input: Input) -> Decoded {
        switch input {
        case .character(let value): return decodeCharacter(value)
        case .keyCode(let code): return decodeKeyCode(code)
        }
    }

    private static func decodeCharacter(_ value: UInt32) -> Decoded {
        switch value {
        case 8, 127: return .key(.backspace)
        case 9: return .key(.tab)
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 1...26:
            let letter = Character(Unicode.Scalar(UInt8(value) + 0x60))
            return .key(.control(letter))
        case 0..<32, 0x80..<0xA0:
            return .ignored
        default:
            guard let scalar = Unicode.Scalar(value) else { return .ignored }
            return .key(.character(Character(scalar)))
        }
    }

    private static func decodeKeyCode(_ code: Int32) -> Decoded {
        switch code {
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_DC: return .key(.delete)
        case KEY_BTAB: return .key(.backTab)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_ENTER: return .key(.enter)
        case KEY_RESIZE: return .resize
        case (KEY_F0 + 1)...(KEY_F0 + 63): return .key(.function(Int(code - KEY_F0)))
        default: return .ignored
        }
    }
}
