import Foundation
import Testing
@testable import QuarryTUI

@Suite("Widgets render into a screen buffer")
struct WidgetTests {
    let theme = Theme.builtInDefault

    func buffer(_ width: Int, _ height: Int) -> ScreenBuffer { ScreenBuffer(size: TerminalSize(width: width, height: height)) }

    @Test("a table draws its header with the sort arrow, section headers and aligned rows")
    func table() {
        var screen = buffer(30, 5)
        let view = TableView(
            columns: [TableColumn(title: "sym", width: 5, sortAscending: true), TableColumn(title: "price", width: 8, alignment: .trailing)],
            lines: [.section(title: "Energy", count: 2), .row(cells: ["XOM", "101.50"], highlight: [.cursor]), .row(cells: ["CVX", "9.00"], highlight: [.alternate])])
        view.render(into: &screen, rect: screen.bounds, theme: theme)
        #expect(screen.lines == ["sym ▲ price", "▸ Energy (2)", "XOM     101.50", "CVX       9.00", ""])
        #expect(screen[0, 0].style == theme[.header])
        #expect(screen[0, 2].style == theme[.cursor])
        #expect(screen[0, 3].style == theme[.alternateRow])
        #expect(screen[0, 1].style == theme[.section])
    }

    @Test("a table scrolls by column and can freeze its first column")
    func tableScrolling() {
        let columns = (0..<6).map { TableColumn(title: "c\($0)", width: 4) }
        var view = TableView(columns: columns, lines: [.row(cells: (0..<6).map { "v\($0)" }, highlight: [])], firstColumn: 3)
        #expect(view.visibleColumns(width: 12) == [3, 4, 5])
        view.freezesFirstColumn = true
        #expect(view.visibleColumns(width: 12) == [0, 3, 4])
        var screen = buffer(12, 2)
        view.render(into: &screen, rect: screen.bounds, theme: theme)
        #expect(screen.lines == ["c0   c3   c4", "v0   v3   v4"])
    }

    @Test("a table cuts wide text by display width and keeps the columns aligned")
    func tableWideText() {
        var screen = buffer(20, 2)
        TableView(columns: [TableColumn(title: "name", width: 7), TableColumn(title: "n", width: 3)],
                  lines: [.row(cells: ["東京タワー", "1"], highlight: [])])
            .render(into: &screen, rect: screen.bounds, theme: theme)
        #expect(screen.lines[1] == "東京タ… 1")
        #expect(screen[8, 1].text == "1")
    }

    @Test("a bar puts text left and right and cuts the right part first")
    func bar() {
        var screen = buffer(30, 1)
        BarLine(left: "row 1/10", right: "import 5 rows/s", style: theme[.status]).render(into: &screen, rect: screen.bounds)
        #expect(screen.lines[0] == " row 1/10     import 5 rows/s")
        var narrow = buffer(15, 1)
        BarLine(left: "row 1/10", right: "import 5 rows/s", style: theme[.status]).render(into: &narrow, rect: narrow.bounds)
        #expect(narrow.lines[0] == " row 1/10")
    }

    @Test("a list overlay shows a box, a selection and scrolls to keep it visible")
    func listOverlay() {
        var screen = buffer(40, 8)
        let entries = (1...10).map { ListOverlay.Entry(label: "k\($0)", value: "does \($0)") }
        let list = ListOverlay(title: "Keys", entries: entries, selected: 7)
        list.render(into: &screen, area: screen.bounds, theme: theme)
        let lines = screen.lines
        #expect(lines[1].contains("┌─ Keys"))  // one cell of margin around overlays
        #expect(lines.contains { $0.contains("k8") && $0.contains("does 8") })
        #expect(!lines.contains { $0.contains("k1 ") })
        #expect(lines[6].contains("/10"))
    }

    @Test("a form shows fields, hints, inline errors, the modified marker and the caret")
    func form() {
        var screen = buffer(60, 10)
        let form = FormView(title: "Edit Ticker", fields: [
            FormField(label: "symbol", text: "XOM", hint: "string, required"),
            FormField(label: "price", text: "abc", hint: "double", error: "expected a number", isModified: true),
        ], focus: 1, caret: 3)
        form.render(into: &screen, area: screen.bounds, theme: theme)
        let lines = screen.lines
        #expect(lines.contains { $0.contains("Edit Ticker") })
        #expect(lines.contains { $0.contains(" symbol") && $0.contains("XOM") && $0.contains("string, required") })
        let priceRow = try! #require(lines.firstIndex { $0.contains("✎price") })
        #expect(lines[priceRow + 1].contains("✗ expected a number"))
        // The caret sits after "abc" in reverse video.
        let x = lines[priceRow].distance(from: lines[priceRow].startIndex, to: lines[priceRow].range(of: "abc")!.upperBound)
        #expect(screen[x, priceRow].style.attributes.contains(.reverse))
    }

    @Test("a form field window keeps the caret visible in long text")
    func formWindow() {
        let (shown, caret) = FormView.window(of: "abcdefghij", caret: 10, width: 4)
        #expect(shown == "hij" && caret == 3)
        let (start, home) = FormView.window(of: "abcdefghij", caret: 0, width: 4)
        #expect(start == "abcd" && home == 0)
    }

    @Test("a prompt shows an error with a caret under the column at fault")
    func prompt() {
        var screen = buffer(40, 2)
        PromptLine(prompt: "filter: ", text: EditableText("price >> 3"), error: ("unexpected '>'", 8))
            .render(into: &screen, rect: screen.bounds, theme: theme)
        #expect(screen.lines[0] == "               ^ unexpected '>'")
        #expect(screen.lines[1] == "filter: price >> 3")
        #expect(screen[15, 0].style == theme[.error])
    }

    @Test("a message box is centred with its title")
    func messageBox() {
        var screen = buffer(40, 7)
        MessageBox(title: "Delete", lines: ["Delete 3 objects? (y/n)"]).render(into: &screen, area: screen.bounds, theme: theme)
        let lines = screen.lines
        #expect(lines[2].contains("┌─ Delete"))
        #expect(lines[3].contains("│ Delete 3 objects? (y/n) │"))
        #expect(lines[4].contains("└"))
    }

    @Test("widgets clip to tiny areas without crashing")
    func tinyAreas() {
        var screen = buffer(3, 1)
        TableView(columns: [TableColumn(title: "long title", width: 10)], lines: [.row(cells: ["x"], highlight: [])])
            .render(into: &screen, rect: screen.bounds, theme: theme)
        FormView(title: "t", fields: [FormField(label: "a", text: "b")]).render(into: &screen, area: screen.bounds, theme: theme)
        ListOverlay(title: "t", entries: [.init(label: "a")]).render(into: &screen, area: screen.bounds, theme: theme)
        MessageBox(title: "t", lines: ["hello"]).render(into: &screen, area: screen.bounds, theme: theme)
        PromptLine(prompt: "/", text: EditableText("abc"), error: ("e", 2)).render(into: &screen, rect: screen.bounds, theme: theme)
        #expect(screen.size == TerminalSize(width: 3, height: 1))
    }
}

@Suite("A bar's message has priority")
struct BarLinePriorityTests {
    @Test("a message is whole at 40, 60 and 120 columns; the left text is shortened with an ellipsis", arguments: [40, 60, 120])
    func messageWins(width: Int) {
        var screen = ScreenBuffer(size: TerminalSize(width: width, height: 1))
        let left = "row 1234/56789 · col 3/9 · sort symbol ▲ · filter price > 100 AND volume < 5"
        BarLine(left: left, right: "import 5 rows/s", style: .plain, message: ("error: database is locked", .plain))
            .render(into: &screen, rect: screen.bounds)
        let line = screen.lines[0]
        #expect(line.contains("error: database is locked"))
        if width < 120 { #expect(line.contains("…")) }
        #expect(line.hasPrefix(" row "))
    }
}
