import Foundation
import QuarryTestSupport
import Testing

/// "import paused: store busy" while another process holds the store's write lock (issue 34,
/// item 24): the status line says so by itself, and stops saying so when the lock is released,
/// no key pressed.
@Suite("End to end in tmux: the importer's alert", .serialized,
       .enabled(if: TmuxHarness.isAvailable && (try? TmuxHarness.run(["sqlite3", "-version"]).status) == 0, "tmux or sqlite3 is not installed"))
struct LiveAlertEndToEndTests {
    let directory = TemporaryDirectory()
    let e2e = TerminalEndToEndTests()

    @Test("the demo's status line shows a busy store and its end without a key press")
    func busyStoreAlert() async throws {
        let store = directory.file("busy.sqlite").path
        let demo = TmuxHarness(width: 120, height: 30)
        defer { demo.shutDown() }
        try demo.start("\(try e2e.quarry()) demo --store \(store) --rows 300 --rate 200", statusLine: false)
        _ = try await e2e.waitFor(demo, "the importer running", timeout: 60) { $0.contains { $0.contains("rows/s") } }

        // Another process takes the write lock and keeps it.
        let locker = TmuxHarness(width: 80, height: 10)
        defer { locker.shutDown() }
        try locker.start("sqlite3 \(store)", statusLine: false)
        _ = try await e2e.waitFor(locker, text: "sqlite>")
        // Waiting its turn if the importer is saving right then.
        try locker.tmux("send-keys", "-t", locker.session, "-l", ".timeout 120000")
        try locker.send("Enter")
        // (A trailing space: tmux takes an argument ending in ";" as a command separator.)
        try locker.tmux("send-keys", "-t", locker.session, "-l", "BEGIN IMMEDIATE; ")
        try locker.send("Enter")

        // The lock is held once the locker's prompt is back after its BEGIN. (On a loaded
        // machine the importer's back-to-back saves can keep it waiting a minute: the alert's
        // own wait starts only then.)
        let locked = try await e2e.waitFor(locker, "the locker's BEGIN to return", timeout: 300) { s in
            let lines = s.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return lines.contains { $0.hasPrefix("sqlite> BEGIN IMMEDIATE;") } && lines.last == "sqlite>"
        }
        #expect(!locked.contains { $0.contains("Error") }, "the locker took the lock: \(locked)")

        // No key goes to the browser from here on.
        if try await demo.waitForScreen(timeout: .seconds(120), { $0.contains { $0.contains("import paused: store busy") } }) == nil {
            Issue.record("""
                timed out waiting for the alert; the demo's screen was:
                \(try demo.screen().joined(separator: "\n"))
                the locker's screen was:
                \(try locker.screen().joined(separator: "\n"))
                the demo's threads were:
                \(ThreadDump.of(commandLineContaining: "demo --store \(store)"))
                """)
            return
        }
        try locker.tmux("send-keys", "-t", locker.session, "-l", "COMMIT; ")
        try locker.send("Enter")
        _ = try await e2e.waitFor(demo, "the alert to go, without a key", timeout: 120) { s in
            !s.contains { $0.contains("import paused") } && s.contains { $0.contains("rows/s") }
        }
        try demo.send("q")
        #expect(try await demo.waitForSessionEnd())
    }
}
