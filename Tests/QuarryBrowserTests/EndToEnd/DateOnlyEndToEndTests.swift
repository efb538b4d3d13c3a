import Foundation
import QuarryTestSupport
import Testing

/// Issue 34, item 2, with `TZ` set in the program's environment: a SQLite `DATE` of
/// `1929-10-21` and a date-only value imported from CSV into a Quarry store are `1929-10-21` in
/// the table, the detail page and the edit form, stay so when the form saves, and export and
/// convert to a JSON store as `1929-10-21`.
@Suite("End to end in tmux: date-only values in every time zone", .serialized,
       .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct DateOnlyEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    /// Checks that no line of `screen` shows the day before or a midnight time.
    func expectNoShiftedDate(_ screen: [String]) {
        let text = screen.joined(separator: "\n")
        #expect(!text.contains("1929-10-20") && !text.contains("00:00:00"), "\(text)")
    }

    @Test("a foreign SQLite DATE column: table and detail page", arguments: ["UTC", "America/New_York", "Asia/Tokyo"])
    func foreignDateColumn(_ zone: String) async throws {
        let library = try PlainSQLiteFixture.write(to: directory.file("lib.db"))
        let tmux = TmuxHarness(width: 120, height: 24)
        defer { tmux.shutDown() }
        try tmux.start("env TZ=\(zone) \(try e2e.quarry()) browse \(library.path) --entity authors", statusLine: false)
        var screen = try await e2e.waitFor(tmux, text: "Ursula")
        let row = try #require(screen.first { $0.contains("Ursula") })
        #expect(row.contains("1929-10-21"), "\(row)")
        expectNoShiftedDate(screen)
        // Rows sort by name: Lem, then Le Guin.
        try tmux.send("j")
        try tmux.send("Enter")
        screen = try await e2e.waitFor(tmux, "the detail page") { s in s.contains { $0.contains("│ born") && $0.contains("1929-10-21") } }
        expectNoShiftedDate(screen)
        try tmux.send("Escape")
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
    }

    @Test("imported from CSV into a Quarry store: table, edit form, save, export and the JSON store", arguments: ["America/New_York", "Asia/Tokyo"])
    func importedIntoAQuarryStore(_ zone: String) async throws {
        let quarry = try e2e.quarry()
        let model = directory.file("authors.json")
        try Data("""
            {"entities": [{"name": "Author", "attributes": [{"name": "name", "type": "String"}, {"name": "born", "type": "Date"}]}]}
            """.utf8).write(to: model)
        let csv = directory.file("authors.csv")
        try Data("name,born\nUrsula,1929-10-21\n".utf8).write(to: csv)
        let store = directory.file("authors.sqlite").path
        let environment = ["TZ": zone]
        let imported = try CommandRunner.run(URL(fileURLWithPath: quarry), ["import", store, csv.path, "--entity", "Author", "--model", model.path],
                                             environment: environment)
        #expect(imported.status == 0, "\(imported.standardError)")

        let tmux = TmuxHarness(width: 120, height: 24)
        defer { tmux.shutDown() }
        try tmux.start("env TZ=\(zone) \(quarry) browse \(store) --entity Author", statusLine: false)
        var screen = try await e2e.waitFor(tmux, text: "Ursula")
        #expect(try #require(screen.first { $0.contains("Ursula") }).contains("1929-10-21"))
        expectNoShiftedDate(screen)
        // The form shows the date alone; change the name and save: the date stays as it was.
        try tmux.send("e")
        screen = try await e2e.waitFor(tmux, text: "Edit Author")
        #expect(screen.contains { $0.contains("1929-10-21") }, "\(screen)")
        expectNoShiftedDate(screen)
        // Fields in name order (born, name): Tab moves to name, whose caret is at its end.
        try tmux.send("Tab")
        try e2e.type(tmux, " K.", enter: false)
        try tmux.send("C-s")
        screen = try await e2e.waitFor(tmux, "the saved row") { s in s.contains { $0.contains("Ursula K.") && $0.contains("1929-10-21") } }
        expectNoShiftedDate(screen)
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())

        let exported = try CommandRunner.run(URL(fileURLWithPath: quarry), ["export", store, "--entity", "Author"], environment: environment)
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(exported.standardOutput == "born,name\r\n1929-10-21,Ursula K.\r\n")
        let json = directory.file("authors.jsonstore").path
        let converted = try CommandRunner.run(URL(fileURLWithPath: quarry), ["convert", store, json], environment: environment)
        #expect(converted.status == 0, "\(converted.standardError)")
        let file = try String(contentsOfFile: json + "/Author.json", encoding: .utf8)
        #expect(file.contains("\"born\": \"1929-10-21\""), "\(file)")
    }
}
