import Testing
@testable import QuarryTUI

/// A bar's message and a prompt's error are shown whole at any width, wrapping onto more rows
/// when they do not fit one (issue 34, item 16).
@Suite("Messages wider than the screen wrap")
struct WrappedMessageTests {
    let theme = Theme.builtInDefault
    let message = "cannot compare 'price' (Double) with the string 'abc' at column 9"

    @Test("a bar's message that fits needs one row and is drawn as before")
    func fittingMessage() {
        let bar = BarLine(left: "row 1/10", style: .plain, message: ("import stopped", .plain))
        #expect(bar.height(width: 40) == 1)
        var screen = ScreenBuffer(size: TerminalSize(width: 40, height: 1))
        bar.render(into: &screen, rect: screen.bounds)
        #expect(screen.lines == [" row 1/10  import stopped"])
    }

    @Test("a bar's message wider than the bar wraps onto rows above it, its last line beside the left text",
          arguments: [40, 60])
    func wrappedMessage(width: Int) {
        let bar = BarLine(left: "row 1/10 · col 1/8", right: "? help ", style: .plain, message: (message, theme[.error]))
        let height = bar.height(width: width)
        #expect(height == DisplayWidth.wrap(message, toWidth: width - 1).count)
        #expect(height == 2)
        var screen = ScreenBuffer(size: TerminalSize(width: width, height: height))
        bar.render(into: &screen, rect: screen.bounds)
        let lines = screen.lines
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= width })
        let wrapped = DisplayWidth.wrap(message, toWidth: width - 1)
        #expect(lines[0] == " " + wrapped[0])
        #expect(lines[1].hasPrefix(" row 1/") && lines[1].contains("  " + wrapped[1]), "\(lines)")
        #expect(screen[1, 0].style == theme[.error])
    }

    @Test("a bar given fewer rows than its message needs ends its last row with an ellipsis")
    func tooFewRows() {
        let bar = BarLine(left: "", style: .plain, message: (message, .plain))
        #expect(bar.height(width: 20, maximumRows: 2) == 2)
        var screen = ScreenBuffer(size: TerminalSize(width: 20, height: 2))
        bar.render(into: &screen, rect: screen.bounds)
        #expect(screen.lines[1].hasSuffix("…"))
    }

    @Test("a prompt's error too wide for either side of its marker wraps, the marker under its column")
    func wrappedPromptError() {
        let prompt = PromptLine(prompt: "filter: ", text: EditableText("price > 'abc'"), error: (message, 9))
        let width = 60
        let height = prompt.height(width: width)
        #expect(height == 3)
        var screen = ScreenBuffer(size: TerminalSize(width: width, height: height))
        prompt.render(into: &screen, rect: screen.bounds, theme: theme)
        let lines = screen.lines
        #expect((lines[0] + " " + lines[1]).hasPrefix(message), "\(lines)")
        #expect(lines[2] == "filter: price > 'abc'")
        // The marker: under column 9 of the text (`'`), after the message's last line.
        #expect(lines[1].hasSuffix(String(repeating: " ", count: "filter: price > ".count - "column 9".count) + "^"), "\(lines)")
    }

    @Test("a prompt's error that fits beside its marker keeps one row")
    func fittingPromptError() {
        let prompt = PromptLine(prompt: "filter: ", text: EditableText("price >> 3"), error: ("unexpected '>'", 8))
        #expect(prompt.height(width: 40) == 2)
    }
}
