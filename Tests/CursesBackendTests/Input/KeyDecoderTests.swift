import CNCurses
import QuarryTUI
import Testing
@testable import CursesBackend

@Suite("KeyDecoder")
struct KeyDecoderTests {
    private func decode(_ value: UInt32) -> KeyDecoder.Decoded { KeyDecoder.decode(.character(value)) }
    private func decode(keyCode: Int32) -> KeyDecoder.Decoded { KeyDecoder.decode(.keyCode(keyCode)) }

    @Test("printable ASCII and wide characters are characters")
    func printableCharacters() {
        #expect(decode(UInt32(UInt8(ascii: "j"))) == .key(.character("j")))
        #expect(decode(UInt32(UInt8(ascii: " "))) == .key(.character(" ")))
        #expect(decode(0x6771) == .key(.character("東")))
        #expect(decode(0x1F600) == .key(.character("😀")))
        #expect(decode(0xE9) == .key(.character("é")))
    }

    @Test("control codes 1-26 are Ctrl plus the lowercase letter")
    func controlLetters() {
        #expect(decode(1) == .key(.control("a")))
        #expect(decode(2) == .key(.control("b")))
        #expect(decode(6) == .key(.control("f")))
        #expect(decode(17) == .key(.control("q")))
        #expect(decode(19) == .key(.control("s")))
        #expect(decode(26) == .key(.control("z")))
    }

    @Test("Tab, Enter, Escape and Backspace have their own keys")
    func dedicatedControlKeys() {
        #expect(decode(9) == .key(.tab))
        #expect(decode(10) == .key(.enter))
        #expect(decode(13) == .key(.enter))
        #expect(decode(27) == .key(.escape))
        #expect(decode(127) == .key(.backspace))
        #expect(decode(8) == .key(.backspace))
    }

    @Test("NUL, other C0 and C1 controls and surrogates are ignored")
    func ignoredCharacters() {
        #expect(decode(0) == .ignored)
        #expect(decode(28) == .ignored)
        #expect(decode(31) == .ignored)
        #expect(decode(0x85) == .ignored)
        #expect(decode(0xD800) == .ignored)
    }

    @Test("keypad codes map to navigation keys")
    func navigationKeys() {
        #expect(decode(keyCode: KEY_UP) == .key(.up))
        #expect(decode(keyCode: KEY_DOWN) == .key(.down))
        #expect(decode(keyCode: KEY_LEFT) == .key(.left))
        #expect(decode(keyCode: KEY_RIGHT) == .key(.right))
        #expect(decode(keyCode: KEY_PPAGE) == .key(.pageUp))
        #expect(decode(keyCode: KEY_NPAGE) == .key(.pageDown))
        #expect(decode(keyCode: KEY_HOME) == .key(.home))
        #expect(decode(keyCode: KEY_END) == .key(.end))
        #expect(decode(keyCode: KEY_DC) == .key(.delete))
        #expect(decode(keyCode: KEY_BTAB) == .key(.backTab))
        #expect(decode(keyCode: KEY_BACKSPACE) == .key(.backspace))
        #expect(decode(keyCode: KEY_ENTER) == .key(.enter))
    }

    @Test("function keys F1-F63 carry their number")
    func functionKeys() {
        #expect(decode(keyCode: KEY_F0 + 1) == .key(.function(1)))
        #expect(decode(keyCode: KEY_F0 + 12) == .key(.function(12)))
        #expect(decode(keyCode: KEY_F0 + 63) == .key(.function(63)))
        #expect(decode(keyCode: KEY_F0) == .ignored)
    }

    @Test("KEY_RESIZE is a resize, unknown codes are ignored")
    func resizeAndUnknown() {
        #expect(decode(keyCode: KEY_RESIZE) == .resize)
        #expect(decode(keyCode: KEY_MOUSE) == .ignored)
        #expect(decode(keyCode: KEY_SHOME) == .ignored)
    }
}
