import Foundation
import QuarryTestSupport
import QuarryTUI
import Testing

/// End to end: `curses-smoke` runs under a private tmux server, is driven with keys and
/// signals, and the screen and the terminal settings are checked afterwards.
@Suite("curses-smoke in tmux", .serialized, .enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
struct CursesSmokeTests {
    private func smokePath() throws -> String {
        try #require(TmuxHarness.builtExecutable(named: "curses-smoke"), "build curses-smoke first (swift build --build-tests)").path
    }

    @Test("draws wide characters and colours, echoes keys, follows a resize and quits on q")
    func keysAndQuit() async throws {
        let tmux = TmuxHarness()
        defer { tmux.shutDown() }
        try tmux.start(try smokePath())

        #expect(try await tmux.waitForRow(startingWith: "hello 東京 world") != nil)
        #expect(try tmux.screen().contains("coloured line"))
        let colouredRow = try tmux.screen(escapes: true).first { $0.contains("coloured line") } ?? ""
        #expect(colouredRow.contains("31m") && colouredRow.contains("48;5;22m"), "colours missing: \(colouredRow.debugDescription)")

        for (key, expected) in [("j", "char(j)"), ("C-s", "control(s)"), ("C-f", "control(f)"), ("Escape", "escape"), ("Up", "up"), ("BTab", "backTab"), ("F5", "F5")] {
            try tmux.send(key)
            let row = try await tmux.waitForRow(startingWith: "key: \(expected)")
            let shown = try tmux.screen().prefix(5)
            #expect(row != nil, "key \(key) did not show as \(expected): \(shown)")
        }

        try tmux.tmux("resize-window", "-t", tmux.session, "-x", "100", "-y", "30")
        #expect(try await tmux.waitForRow(startingWith: "size: 100x30") != nil)
        #expect(try await tmux.waitForRow(startingWith: "hello 東京 world") != nil)

        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
    }

    @Test("a ZWJ emoji sequence is drawn whole in two cells in its colours, and stays so while other rows change")
    func zwjSequence() async throws {
        let tmux = TmuxHarness()
        defer { tmux.shutDown() }
        try tmux.start(try smokePath())
        func check(_ row: String?) throws {
            let row = try #require(row, "no family row")
            // tmux keeps at most 21 bytes of a cell: the first three of the family at least.
            #expect(row.contains("family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"), "\(row.debugDescription)")
            let end = try #require(row.range(of: " end"), "\(row.debugDescription)")
            #expect(DisplayWidth.of(row[..<end.lowerBound]) == "family ".count + 2, "\(row.debugDescription)")
        }
        try check(try await tmux.waitForRow(startingWith: "family "))
        let coloured = try tmux.screen(escapes: true).first { $0.contains(" end") } ?? ""
        #expect(coloured.contains("48;5;22m"), "\(coloured.debugDescription)")
        try tmux.send("j")
        #expect(try await tmux.waitForRow(startingWith: "key: char(j)") != nil)
        try check(try tmux.screen().first { $0.hasPrefix("family ") })
        #expect(try tmux.screen().first { $0.hasPrefix("pid: ") } != nil)
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
    }

    @Test("the terminal settings are the same after q, SIGTERM and exit without stop")
    func terminalRestored() async throws {
        let smoke = try smokePath()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curses-smoke-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tmux = TmuxHarness()
        defer { tmux.shutDown() }
        try tmux.start("PS1='$ ' sh")

        func settings(_ name: String) -> String { "stty -a > \(directory)/\(name).tmp && mv \(directory)/\(name).tmp \(directory)/\(name)" }
        func read(_ name: String) throws -> String { try String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8) }

        // Quit with q.
        try tmux.send("\(settings("before")); \(smoke); echo $? > \(directory)/status1; \(settings("after-q"))", "Enter")
        #expect(try await tmux.waitForRow(startingWith: "hello 東京 world") != nil)
        try tmux.send("q")
        #expect(try await TmuxHarness.waitForFile("\(directory)/after-q"))

        // Terminated by SIGTERM.
        try tmux.send("clear; \(smoke); echo $? > \(directory)/status2; \(settings("after-term"))", "Enter")
        let pidRow = try #require(try await tmux.waitForRow(startingWith: "pid: "))
        let pid = try #require(pidRow.split(separator: " ").dropFirst().first.flatMap { Int32($0) })
        #expect(kill(pid, SIGTERM) == 0)
        #expect(try await TmuxHarness.waitForFile("\(directory)/after-term"))

        // exit() without stop(): the atexit hook restores the terminal.
        try tmux.send("clear; \(smoke); echo $? > \(directory)/status3; \(settings("after-exit"))", "Enter")
        #expect(try await tmux.waitForRow(startingWith: "hello 東京 world") != nil)
        try tmux.send("e")
        #expect(try await TmuxHarness.waitForFile("\(directory)/after-exit"))

        let before = try read("before")
        #expect(try read("after-exit") == before)
        #expect(try read("status3").trimmingCharacters(in: .whitespacesAndNewlines) == "3")
        #expect(before.contains("icanon") && before.contains("echo"))
        #expect(try read("after-q") == before)
        #expect(try read("after-term") == before)
        #expect(try read("status1").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(try read("status2").trimmingCharacters(in: .whitespacesAndNewlines) == "\(128 + SIGTERM)")
        // Back on the normal screen with the shell's output, the cursor shown.
        #expect(try await tmux.waitForLastRow("$"))
        let cursorFlag = try tmux.tmux("display-message", "-p", "-t", tmux.session, "#{cursor_flag},#{alternate_on}").output
        #expect(cursorFlag.trimmingCharacters(in: .whitespacesAndNewlines) == "1,0")
    }

    @Test("Ctrl-C terminates cleanly; Ctrl-Z gives the terminal back and fg takes it again")
    func interruptAndSuspend() async throws {
        let smoke = try smokePath()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curses-smoke-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tmux = TmuxHarness()
        defer { tmux.shutDown() }
        try tmux.start("PS1='$ ' sh")

        func settings(_ name: String) -> String { "stty -a > \(directory)/\(name).tmp && mv \(directory)/\(name).tmp \(directory)/\(name)" }
        func read(_ name: String) throws -> String { try String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8) }

        try tmux.send("\(settings("before")); \(smoke); echo $? > \(directory)/status; \(settings("after-interrupt"))", "Enter")
        #expect(try await tmux.waitForRow(startingWith: "hello 東京 world") != nil)
        try tmux.send("C-c")
        #expect(try await TmuxHarness.waitForFile("\(directory)/after-interrupt"))
        #expect(try read("status").trimmingCharacters(in: .whitespacesAndNewlines) == "\(128 + SIGINT)")
        #expect(try read("after-interrupt") == read("before"))

        try tmux.send("clear; \(smoke)", "Enter")
        #expect(try await tmux.waitForRow(startingWith: "hello 東京 world") != nil)
        try tmux.send("x")
        #expect(try await tmux.waitForRow(startingWith: "key: char(x)") != nil)
        try tmux.send("C-z")
        #expect(try await tmux.waitForRow { $0.contains("Stopped") } != nil)
        try tmux.send(settings("suspended"), "Enter")
        #expect(try await TmuxHarness.waitForFile("\(directory)/suspended"))
        #expect(try read("suspended") == read("before"))

        try tmux.send("fg", "Enter")
        // The last frame is repainted as it was, and keys reach the program again.
        #expect(try await tmux.waitForRow(startingWith: "key: char(x)") != nil)
        try tmux.send("y")
        #expect(try await tmux.waitForRow(startingWith: "key: char(y)") != nil)
        try tmux.send("q")
        #expect(try await tmux.waitForLastRow("$"))
    }

    @Test("refuses to start without a terminal")
    func notInteractive() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try smokePath())
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(message.contains("needs an interactive terminal"))
    }
}
