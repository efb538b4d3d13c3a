import Foundation

/// A private tmux server (its own socket file, no user configuration) for driving a terminal
/// program (`curses-smoke`, `quarry`) as a user would, and reading back what the terminal shows.
///
/// Waiting polls `capture-pane` with short sleeps: the program runs in another process, so
/// there is nothing to observe directly. Every wait is bounded.
public struct TmuxHarness {
    /// The server's socket: a short absolute path (sockets are limited to 108 bytes), removed by
    /// ``shutDown()``.
    public let socket = "/tmp/quarry-tmux-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    /// The session's name.
    public let session = "e2e"
    /// `XDG_STATE_HOME` of the programs run in the session (the browser keeps its prompt
    /// history there), so tests never write the user's own; removed by ``shutDown()``.
    public var stateDirectory: String { socket.replacingOccurrences(of: ".sock", with: "-state") }
    /// The terminal's size in cells.
    public let width: Int, height: Int

    /// A harness for a `width`×`height` terminal (the server starts with ``start(_:)``).
    public init(width: Int = 80, height: Int = 24) {
        self.width = width
        self.height = height
    }

    /// Whether `tmux` can be run.
    public static var isAvailable: Bool { (try? run(["tmux", "-V"]).status) == 0 }

    /// The executable `name` built next to the test bundle (or in `.build/debug`).
    public static func builtExecutable(named name: String) -> URL? {
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)]
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent(name))
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs a command (looked up on `PATH`) and returns its status and standard output.
    ///
    /// Spawned with `posix_spawnp`, not `Foundation.Process`: the first tmux command forks a
    /// long-lived server that inherits the descriptors `Process` watches to notice the child's
    /// exit, so `waitUntilExit` would never return. Output goes through a temporary file for the
    /// same reason (a pipe would never reach its end). Started with signals as a terminal has
    /// them (see ``CleanSpawn``).
    @discardableResult
    public static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-out-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let exitStatus = try CleanSpawn.run(arguments, searchPath: true, environment: ProcessInfo.processInfo.environment,
                                            outputPath: outputPath, errorPath: nil)
        let data = FileManager.default.contents(atPath: outputPath) ?? Data()
        return (exitStatus, String(decoding: data, as: UTF8.self))
    }

    /// A command could not be started.
    public struct SpawnError: Error {
        var command: String
        var code: Int32
    }

    /// Runs a tmux command against this harness's server.
    @discardableResult
    public func tmux(_ arguments: String...) throws -> (status: Int32, output: String) {
        try Self.run(["tmux", "-S", socket, "-f", "/dev/null"] + arguments)
    }

    /// Starts a detached session running `command` with a UTF-8 locale and a 256-colour TERM.
    /// Without `statusLine`, tmux's own status bar is turned off so the program gets every row.
    public func start(_ command: String, statusLine: Bool = true) throws {
        let environment = "env -u TMUX -u NO_COLOR -u COLORTERM TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 XDG_STATE_HOME=\(stateDirectory)"
        try tmux("new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", session, "\(environment) \(command)")
        if !statusLine { try tmux("set-option", "-t", session, "status", "off") }
    }

    /// Waits until the whole screen satisfies `predicate`; returns that screen, or nil after `timeout`.
    public func waitForScreen(timeout: Duration = .seconds(60), _ predicate: ([String]) -> Bool) async throws -> [String]? {
        try await Self.poll(timeout: timeout) {
            let rows = try screen()
            return predicate(rows) ? rows : nil
        }
    }

    /// Runs `check` every 50 ms until it gives a value or `timeout` has passed, and once more
    /// after the deadline: the test process's few threads may all be busy with other tests past
    /// the deadline, when what is awaited has long been there (the wait is for the terminal, not
    /// for this process).
    public static func poll<T>(timeout: Duration, _ check: () throws -> T?) async throws -> T? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let value = try check() { return value }
            if ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The text on screen, one string per row, trailing blanks removed (with `escapes`, the
    /// rows keep their SGR sequences).
    public func screen(escapes: Bool = false) throws -> [String] {
        let output = try tmux(["capture-pane", "-p", "-t", session] + (escapes ? ["-e"] : [])).output
        return output.components(separatedBy: "\n").map { row in
            var trimmed = Substring(row)
            while trimmed.last == " " { trimmed = trimmed.dropLast() }
            return String(trimmed)
        }
    }

    /// Waits until some row satisfies `predicate`; returns that row, or nil after `timeout`.
    @discardableResult
    public func waitForRow(timeout: Duration = .seconds(60), _ predicate: (String) -> Bool) async throws -> String? {
        try await Self.poll(timeout: timeout) { try screen().first(where: predicate) }
    }

    /// Waits until the last non-empty row is exactly `text` (a shell prompt, say); returns
    /// whether it happened before `timeout`.
    public func waitForLastRow(_ text: String, timeout: Duration = .seconds(60)) async throws -> Bool {
        try await Self.poll(timeout: timeout) { try screen().last(where: { !$0.isEmpty }) == text ? true : nil } ?? false
    }

    /// Waits until a row starts with `prefix`.
    @discardableResult
    public func waitForRow(startingWith prefix: String, timeout: Duration = .seconds(60)) async throws -> String? {
        try await waitForRow(timeout: timeout) { $0.hasPrefix(prefix) }
    }

    /// Waits until the session has ended (its only pane's process exited).
    public func waitForSessionEnd(timeout: Duration = .seconds(60)) async throws -> Bool {
        try await Self.poll(timeout: timeout) { try tmux("has-session", "-t", session).status != 0 ? true : nil } ?? false
    }

    /// Waits until `path` exists.
    public static func waitForFile(_ path: String, timeout: Duration = .seconds(60)) async throws -> Bool {
        try await poll(timeout: timeout) { FileManager.default.fileExists(atPath: path) ? true : nil } ?? false
    }

    /// Sends keys in tmux's notation (`j`, `C-s`, `Escape`, `Up`).
    public func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", session] + keys)
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try Self.run(["tmux", "-S", socket, "-f", "/dev/null"] + arguments)
    }

    /// Stops the server and everything in it: the panes' processes are sent SIGHUP first, as
    /// a closing terminal would, because tmux 3.3 does not always end them on kill-server.
    public func shutDown() {
        let panes = (try? tmux("list-panes", "-a", "-F", "#{pane_pid}").output) ?? ""
        for pid in panes.split(separator: "\n").compactMap({ Int32($0) }) { kill(pid, SIGHUP) }
        _ = try? tmux("kill-server")
        unlink(socket)
        try? FileManager.default.removeItem(atPath: stateDirectory)
    }
}
