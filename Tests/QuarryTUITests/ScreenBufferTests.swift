import Testing
@testable import QuarryTUI

@Suite struct ScreenBufferTests {
    @Test func writesAndClipsText() {
        var buffer = ScreenBuffer(size: TerminalSize(width: 10, height: 2))
        let used = buffer.write("hello world", x: 2, y: 0, style: .plain)
        #expect(used == 8)
        #expect(buffer.lines == ["  hello wo", ""])
    }

    @Test func wideCharacterNeverStraddlesTheEdge() {
        var buffer = ScreenBuffer(size: TerminalSize(width: 5, height: 1))
        buffer.write("ab東京", x: 0, y: 0, style: .plain)
        #expect(buffer.line(0) == "ab東 ")
        #expect(buffer[3, 0].isContinuation)
    }

    @Test func controlCharactersAreShownEscaped() {
        var buffer = ScreenBuffer(size: TerminalSize(width: 7, height: 1))
        buffer.write("a\u{1B}[2J", x: 0, y: 0, style: .plain)
        #expect(buffer.line(0) == "a^[[2J ")
    }

    @Test func truncationUsesDisplayWidth() {
        #expect(DisplayWidth.of("東京") == 4)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.truncate("東京タワー", toWidth: 5) == "東京…")
        #expect(DisplayWidth.fit("abc", toWidth: 5, alignment: .trailing) == "  abc")
    }
}
