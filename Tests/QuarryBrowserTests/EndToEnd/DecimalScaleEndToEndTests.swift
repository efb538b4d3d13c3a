import Foundation
import QuarryTestSupport
import Testing

/// Issue 34, item 3, in a terminal: a foreign `NUMERIC(10,2)` column and decimals imported
/// into a Quarry store show and export with their scale.
@Suite("End to end in tmux: decimals keep their scale", .serialized,
       .enabled(if: TmuxHarness.isAvailable && (try? TmuxHarness.run(["sqlite3", "-version"]).status) == 0, "tmux or sqlite3 is not installed"))
struct DecimalScaleEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    @Test("a NUMERIC(10,2) column: 12.50 and 15.00 in the table, the detail page and export")
    func foreignNumericColumn() async throws {
        let shop = directory.file("shop.db").path
        let made = try TmuxHarness.run(["sqlite3", shop, """
            CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, price NUMERIC(10,2));
            INSERT INTO items VALUES (1, 'pen', '12.50'), (2, 'pad', 15);
            """])
        #expect(made.status == 0, "\(made.output)")
        let tmux = TmuxHarness(width: 100, height: 20)
        defer { tmux.shutDown() }
        try tmux.start("\(try e2e.quarry()) browse \(shop) --entity items --sort name", statusLine: false)
        var screen = try await e2e.waitFor(tmux, text: "pen")
        #expect(try #require(screen.first { $0.contains("pen") }).contains("12.50"), "\(screen)")
        #expect(try #require(screen.first { $0.contains("pad") }).contains("15.00"), "\(screen)")
        try tmux.send("Enter")
        screen = try await e2e.waitFor(tmux, "the detail page") { s in s.contains { $0.contains("price") && $0.contains("15.00") } }
        try tmux.send("Escape")
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
        let exported = try CommandRunner.run(URL(fileURLWithPath: try e2e.quarry()), ["export", shop, "--entity", "items", "--sort", "name",
                                                                                    "--columns", "name,price"])
        #expect(exported.standardOutput == "name,price\r\npad,15.00\r\npen,12.50\r\n", "\(exported.standardError)")
    }

    @Test("imported into a Quarry store: 12.50 in the table and the form; saved, exported and converted, still 12.50")
    func importedIntoAQuarryStore() async throws {
        let quarry = try e2e.quarry()
        let model = directory.file("items.json")
        try Data("""
            {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "price", "type": "Decimal"}]}]}
            """.utf8).write(to: model)
        let csv = directory.file("items.csv")
        try Data("name,price\npen,12.50\n".utf8).write(to: csv)
        let store = directory.file("items.sqlite").path
        let imported = try CommandRunner.run(URL(fileURLWithPath: quarry), ["import", store, csv.path, "--entity", "Item", "--model", model.path])
        #expect(imported.status == 0, "\(imported.standardError)")
        let tmux = TmuxHarness(width: 100, height: 20)
        defer { tmux.shutDown() }
        try tmux.start("\(quarry) browse \(store) --entity Item", statusLine: false)
        var screen = try await e2e.waitFor(tmux, text: "pen")
        #expect(try #require(screen.first { $0.contains("pen") }).contains("12.50"), "\(screen)")
        try tmux.send("e")
        screen = try await e2e.waitFor(tmux, text: "Edit Item")
        #expect(screen.contains { $0.contains("12.50") }, "\(screen)")
        // Fields in name order (name, price): the caret is at the end of name.
        try e2e.type(tmux, "s", enter: false)
        try tmux.send("C-s")
        _ = try await e2e.waitFor(tmux, "the saved row") { s in s.contains { $0.contains("pens") && $0.contains("12.50") } }
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
        let exported = try CommandRunner.run(URL(fileURLWithPath: quarry), ["export", store, "--entity", "Item", "--format", "jsonl"])
        #expect(exported.standardOutput == "{\"name\":\"pens\",\"price\":12.50}\n", "\(exported.standardError)")
        let json = directory.file("items.jsonstore").path
        let converted = try CommandRunner.run(URL(fileURLWithPath: quarry), ["convert", store, json])
        #expect(converted.status == 0, "\(converted.standardError)")
        let file = try String(contentsOfFile: json + "/Item.json", encoding: .utf8)
        #expect(file.contains("\"price\": \"12.50\""), "\(file)")
    }
}
