import Testing
@testable import QuarryTUI

@Suite("ASCII stand-ins for a non-UTF-8 locale")
struct AsciiFallbackTests {
    @Test("every glyph the UI draws has a one-cell ASCII stand-in")
    func everyGlyphHasAStandIn() {
        let expected = ["▲": "^", "▼": "v", "▸": ">", "…": ".", "·": ".", "─": "-", "│": "|", "┌": "+", "┘": "+",
                        "✎": "*", "✗": "x", "⏸": "=", "→": ">", "↑": "^", "↓": "v"]
        for (glyph, standIn) in expected {
            #expect(AsciiFallback.glyph(for: glyph) == standIn)
        }
        #expect(AsciiFallback.glyph(for: "a") == "a")
        #expect(AsciiFallback.glyph(for: "東") == "?")
    }

    @Test("a rendered table header and box map to ASCII cell by cell, keeping every column")
    func renderedFrameMapsToAscii() {
        var buffer = ScreenBuffer(size: TerminalSize(width: 30, height: 5))
        TableView(columns: [TableColumn(title: "symbol", width: 8, sortAscending: true), TableColumn(title: "price", width: 8, sortAscending: false)],
                  lines: []).render(into: &buffer, rect: Rect(x: 0, y: 0, width: 30, height: 2), theme: .builtInDefault)
        _ = Box(title: "Keys", style: .plain).render(into: &buffer, rect: Rect(x: 0, y: 2, width: 20, height: 3))
        var ascii = ""
        for y in 0..<buffer.size.height {
            for x in 0..<buffer.size.width where !buffer[x, y].isContinuation { ascii += AsciiFallback.glyph(for: buffer[x, y].text) }
            ascii += "\n"
        }
        #expect(ascii.allSatisfy { $0.isASCII })
        #expect(ascii.contains("symbol ^"))
        #expect(ascii.contains("price v"))
        #expect(ascii.contains("+-"))
    }
}
