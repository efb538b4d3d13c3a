import Foundation
import GRDB
import QuarryTestSupport
import Testing

/// Progress on standard error and Ctrl-C, end to end: the bar moving in a terminal (tmux), an
/// import interrupted keeping exactly the chunks it reports, and the plain lines when standard
/// error is not a terminal (`--quiet`: none).
@Suite("Progress and Ctrl-C")
struct ProgressAndInterruptCommandTests {
    let directory = TemporaryDirectory()

    static let model = """
        {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "n", "type": "Integer 64"},
                                                      {"name": "price", "type": "Double"}]}]}
        """

    /// A CSV file of `rows` items.
    private func csv(rows: Int, name: String = "items.csv") throws -> URL {
        var text = "name,n,price\n"
        text.reserveCapacity(rows * 24)
        for i in 0..<rows { text += "item\(i),\(i),\(Double(i) / 2)\n" }
        return try QuarryExecutable.write(text, to: directory.file(name))
    }

    private func count(_ store: URL) throws -> Int {
        try DatabaseQueue(path: store.path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM Item") } ?? -1
    }

    @Test("Ctrl-C during an import in a terminal: the bar moves, then the store holds exactly the rows reported kept",
          .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
    func interruptedImportKeepsTheReportedChunks() throws {
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"))
        let model = try QuarryExecutable.write(Self.model, to: directory.file("items.json"))
        // Big enough that saving takes several seconds in a debug build.
        let file = try csv(rows: 600_000)
        let store = directory.file("items.sqlite")
        let tmux = TmuxHarness(width: 220, height: 12)
        defer { tmux.shutDown() }
        try tmux.start("\(executable.path) import \(store.path) \(file.path) --entity Item --model \(model.path); echo EXIT=$?; sleep 600",
                       statusLine: false)
        // Blocking, not awaiting, between looks: Ctrl-C goes while the import works (BlockingPoll).
        func bar(_ accept: (String) -> Bool) throws -> String? {
            try BlockingPoll.until(timeout: .seconds(120)) { try tmux.screen().first { $0.hasPrefix("import: saving [") && accept($0) } }
        }
        let first = try #require(try bar { $0.contains("rows/s") && $0.contains("ETA") }, "\((try? tmux.screen()) ?? [])")
        // The bar moves: another state of it shows.
        let moved = try bar { $0 != first }
        #expect(moved != nil, "the bar stayed at \(first)")
        try tmux.send("C-c")
        let screen = try #require(try BlockingPoll.until(timeout: .seconds(120)) { () -> [String]? in
            let screen = try tmux.screen()
            return screen.contains { $0.hasPrefix("EXIT=") } ? screen : nil
        }, "\((try? tmux.screen()) ?? [])")
        #expect(screen.contains("EXIT=130"), "\(screen)")
        let text = screen.joined(separator: "\n")
        let message = try #require(screen.first { $0.hasPrefix("import: interrupted") }, "\(text)")
        let kept: Int
        if message.contains("nothing imported") {
            kept = 0
        } else {
            let digits = try #require(message.split(separator: ";")[1].split(separator: " ").first.flatMap { Int($0) }, "\(message)")
            kept = digits
            #expect(message.contains("saved chunks kept, the rest not imported"), "\(message)")
        }
        #expect(kept < 600_000)
        #expect(try count(store) == kept, "\(text)")
        // Whole chunks only (5,000 rows each).
        #expect(kept % 5000 == 0)
        // As the message says, the same import run again adds the rest, none twice.
        let rerun = try QuarryExecutable.run(["import", store.path, file.path, "--entity", "Item", "--quiet"])
        #expect(rerun.status == 0, "\(rerun.standardError)")
        #expect(rerun.standardOutput.contains("imported \(600_000 - kept) Item objects"), "\(rerun.standardOutput)")
        let distinct = try DatabaseQueue(path: store.path).read { try Int.fetchOne($0, sql: "SELECT COUNT(DISTINCT n) FROM Item") }
        #expect(try count(store) == 600_000)
        #expect(distinct == 600_000)
    }

    @Test("without a terminal, progress is plain lines and a summary; --quiet prints none")
    func plainLinesWithoutATerminal() throws {
        let model = try QuarryExecutable.write(Self.model, to: directory.file("items.json"))
        let file = try csv(rows: 12_000)
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"))
        // An interval of 0: a line at every update, so the test does not depend on timing.
        let result = try CommandRunner.run(executable, ["import", directory.file("a.sqlite").path, file.path, "--entity", "Item",
                                                        "--model", model.path], environment: ["QUARRY_PROGRESS_INTERVAL": "0"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("import: checking 5000 rows") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("import: saving 5000/12000 rows (41%)") }, "\(lines)")
        #expect(lines.last?.hasPrefix("import: 12000 rows in ") == true, "\(lines)")
        #expect(!result.standardError.contains("\u{1B}") && !result.standardError.contains("\r"))
        let quiet = try CommandRunner.run(executable, ["import", directory.file("b.sqlite").path, file.path, "--entity", "Item",
                                                       "--model", model.path, "--quiet"], environment: ["QUARRY_PROGRESS_INTERVAL": "0"])
        #expect(quiet.status == 0, "\(quiet.standardError)")
        #expect(quiet.standardError.isEmpty, "\(quiet.standardError)")
        // The export shows its progress the same way.
        let export = try CommandRunner.run(executable, ["export", directory.file("a.sqlite").path, "--entity", "Item",
                                                        "-o", directory.file("out.csv").path], environment: ["QUARRY_PROGRESS_INTERVAL": "0"])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.standardError.contains("export: 12000 rows in "), "\(export.standardError)")
    }

    @Test("the demo's seed shows its progress and summary")
    func demoSeedProgress() throws {
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"))
        let result = try CommandRunner.run(executable, ["demo", "--seed-only", "--rows", "25000", "--store", directory.file("demo.sqlite").path],
                                           environment: ["QUARRY_PROGRESS_INTERVAL": "0"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("demo: seeding 10000/25000 tickers (40%)"), "\(result.standardError)")
        #expect(result.standardError.contains("demo: 25000 tickers in "), "\(result.standardError)")
    }
}
