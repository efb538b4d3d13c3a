import Foundation
import QuarryTestSupport
import Testing

/// The real program in a real terminal: `quarry demo` and `quarry browse` inside tmux at 120×40.
@Suite("End to end in tmux", .serialized, .enabled(if: TmuxSession.isAvailable))
struct TerminalEndToEndTests {
    let directory = TemporaryDirectory()
    let quarry = quarryExecutable()

    /// `stty -a` of the session's terminal, as the shell sees it.
    func stty(_ tmux: TmuxSession, into file: String) throws -> String {
        let path = directory.file(file).path
        try tmux.shell("stty -a > \(path); echo stty-done-\(file)")
        try tmux.waitFor(text: "stty-done-\(file)")
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The status line's `row r/N` numbers.
    func rowNumbers(_ screen: [String]) -> (Int, Int)? {
        guard let status = screen.last(where: { $0.contains("row ") }),
              let range = status.range(of: #"row (\d+)/(\d+)"#, options: .regularExpression) else { return nil }
        let parts = status[range].dropFirst(4).split(separator: "/").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    @Test("demo: first screen, live rows, G, filters, a bad filter, and q leaves a clean shell")
    func demo() throws {
        let tmux = try TmuxSession()
        let before = try stty(tmux, into: "before")
        let store = directory.file("demo.sqlite").path
        try tmux.shell("\(quarry) demo --store \(store) --rows 3000 --rate 400")
        var screen = try tmux.waitFor(text: "▸ ")
        #expect(screen[0].contains("quarry · demo.sqlite · Ticker · sort sector.name ▲, symbol ▲"))
        #expect(screen.contains { $0.hasPrefix("symbol ▲") })
        #expect(screen.filter { $0.hasPrefix("▸ ") }.count >= 2)
        let (_, firstTotal) = try #require(rowNumbers(screen))
        #expect(firstTotal >= 3000)
        // The importer keeps inserting: the total grows and the merge time shows.
        screen = try tmux.waitFor("rows to change") { s in (rowNumbers(s)?.1 ?? 0) > firstTotal && s.contains { $0.contains("merged") } }
        #expect(screen.last { $0.contains("row ") }?.contains("import") == true)

        try tmux.send("G")
        screen = try tmux.waitFor("the last row") { s in rowNumbers(s).map { $0.0 == $0.1 } ?? false }

        try tmux.send("f")
        try tmux.send("price > 900", literal: true)
        try tmux.send("Enter")
        screen = try tmux.waitFor(text: "filter price > 900")
        let (_, filtered) = try #require(rowNumbers(screen))
        #expect(filtered < firstTotal / 2)

        try tmux.send("f")
        try tmux.send("C-u")
        try tmux.send("price >> 1", literal: true)
        try tmux.send("Enter")
        screen = try tmux.waitFor(text: "^ unexpected")
        let errorLine = try #require(screen.first { $0.contains("^ unexpected") })
        #expect(errorLine.firstIndex(of: "^").map { errorLine.distance(from: errorLine.startIndex, to: $0) } == "filter: price >".count)
        try tmux.send("Escape")
        try tmux.waitFor("the prompt to close") { s in !s.contains { $0.contains("^ unexpected") } }
        #expect(try tmux.capture()[0].contains("filter price > 900"))

        try tmux.send("q")
        screen = try tmux.waitFor("the shell prompt after quitting") { s in
            s.last(where: { !$0.isEmpty })?.hasPrefix(TmuxSession.prompt) == true && !s.contains { $0.contains("▸ ") }
        }
        #expect(try stty(tmux, into: "after") == before)
    }

    @Test("browse: Ctrl-S saves an edit to the store, Esc discards one; SIGTERM restores the terminal")
    func browseEditing() throws {
        let store = directory.file("browse.sqlite").path
        let seed = Process()
        seed.executableURL = URL(fileURLWithPath: quarry)
        seed.arguments = ["demo", "--seed-only", "--rows", "500", "--store", store]
        seed.standardOutput = Pipe()
        try seed.run()
        seed.waitUntilExit()
        #expect(seed.terminationStatus == 0)

        let tmux = try TmuxSession()
        let before = try stty(tmux, into: "before")
        try tmux.shell("\(quarry) browse \(store) --entity Ticker --sort symbol")
        var screen = try tmux.waitFor(text: "row 1/500")
        #expect(screen[0].contains("quarry · browse.sqlite · Ticker · sort symbol ▲"))
        #expect(screen[2].hasPrefix("A "))

        // Edit the first ticker's price: Tab moves through change, name, price.
        try tmux.send("e")
        try tmux.waitFor(text: "Edit Ticker")
        try tmux.send("Tab")
        try tmux.send("Tab")
        try tmux.send("C-u")
        try tmux.send("123.45", literal: true)
        try tmux.send("C-s")
        screen = try tmux.waitFor(text: "saved to disk")
        #expect(screen[2].contains("123.45"))

        // An edit discarded with Esc never reaches the store.
        try tmux.send("e")
        try tmux.waitFor(text: "Edit Ticker")
        try tmux.send("Tab")
        try tmux.send("Tab")
        try tmux.send("C-u")
        try tmux.send("999", literal: true)
        try tmux.send("Escape")
        try tmux.waitFor(text: "Discard the edits")
        try tmux.send("y")
        try tmux.waitFor(text: "edits discarded")

        // SIGTERM from outside: the terminal is restored.
        let shellPID = try tmux.run(["display-message", "-p", "-t", tmux.name, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let pids = try String(decoding: shellOutput("pgrep -P \(shellPID)"), as: UTF8.self)
        let pid = try #require(pids.split(separator: "\n").first.flatMap { Int32($0) })
        kill(pid, SIGTERM)
        try tmux.waitFor("the shell prompt after SIGTERM") { s in
            s.last(where: { !$0.isEmpty })?.hasPrefix(TmuxSession.prompt) == true && !s.contains { $0.contains("row 1/500") }
        }
        #expect(try stty(tmux, into: "after") == before)

        let price = try String(decoding: shellOutput("sqlite3 \(store) \"SELECT price FROM Ticker WHERE symbol = 'A'\""), as: UTF8.self)
        #expect(price.trimmingCharacters(in: .whitespacesAndNewlines) == "123.45")
    }

    @Test("browse --read-only refuses edits and a bad --where is reported before the screen opens")
    func browseErrors() throws {
        let store = directory.file("ro.sqlite").path
        let seed = Process()
        seed.executableURL = URL(fileURLWithPath: quarry)
        seed.arguments = ["demo", "--seed-only", "--rows", "50", "--store", store]
        seed.standardOutput = Pipe()
        try seed.run()
        seed.waitUntilExit()

        let tmux = try TmuxSession()
        try tmux.shell("\(quarry) browse \(store) --where 'price >> 3'; echo exit=$?")
        var screen = try tmux.waitFor(text: "exit=")
        #expect(screen.contains { $0.contains("--where: unexpected '>' at column 8") })
        #expect(screen.contains { $0.contains("exit=64") })

        try tmux.shell("\(quarry) browse \(store) --read-only --entity Ticker")
        try tmux.waitFor(text: "read-only")
        try tmux.send("e")
        screen = try tmux.waitFor(text: "editing is disabled")
        try tmux.send("q")
        screen = try tmux.waitFor("the shell prompt") { s in s.last(where: { !$0.isEmpty })?.hasPrefix(TmuxSession.prompt) == true }
    }

    private func shellOutput(_ command: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}
