import Testing
@testable import QuarryTUI

@Suite("Untrusted text never reaches the terminal raw")
struct ControlEscapingTests {
    @Test("C0, ESC, BEL, DEL and C1 controls are escaped; other text is unchanged")
    func escapesEveryControl() {
        #expect(ControlEscaping.escaped("\u{1B}]2;pwned\u{07}") == "^[]2;pwned^G")
        #expect(ControlEscaping.escaped("a\u{7F}b\u{9B}2J\u{85}") == "a^?b\\x9b2J\\x85")
        #expect(ControlEscaping.escaped("line\r\nnext\t") == "line^M^Jnext^I")
        #expect(ControlEscaping.escaped("東京 é ¢ 👍") == "東京 é ¢ 👍")
        #expect(!ControlEscaping.containsControls("plain ¢ text"))
        #expect(ControlEscaping.containsControls("x\u{90}"))
    }

    @Test("a screen write of a crafted title and clear sequence leaves no control in any cell")
    func bufferWritesNoControlCharacter() {
        var buffer = ScreenBuffer(size: TerminalSize(width: 40, height: 1))
        buffer.write("\u{1B}]2;pwned\u{07}\u{1B}[2J\u{9B}31m", x: 0, y: 0, style: .plain)
        #expect(buffer.line(0).hasPrefix("^[]2;pwned^G^[[2J\\x9b31m"))
        for x in 0..<buffer.size.width {
            #expect(!buffer[x, 0].text.unicodeScalars.contains(where: ControlEscaping.isControl))
        }
    }
}
