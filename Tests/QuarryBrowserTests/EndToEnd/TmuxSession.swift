import Foundation

/// A detached tmux session at a fixed size on a private server socket, driven like a user would:
/// `send-keys` in, `capture-pane` out. Used by the end-to-end tests of the real terminal UI.
final class TmuxSession {
    /// The private server socket name (never the user's tmux server).
    let socket: String
    /// The session name.
    let name: String
    /// The shell prompt the session's shell prints.
    static let prompt = "e2e$ "

    /// Whether tmux is installed.
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Starts a session `width`×`height` running a plain bash with a known prompt.
    init(width: Int = 120, height: Int = 40, environment: [String: String] = [:]) throws {
        socket = "quarry-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        name = "e2e"
        var command = "env -i HOME=\(NSHomeDirectory()) PATH=/usr/bin:/bin TERM=tmux-256color LANG=C.UTF-8 PS1='\(Self.prompt)'"
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { command += " \(key)='\(value)'" }
        command += " bash --norc --noprofile"
        try run(["-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", command])
        try run(["set-option", "-t", name, "status", "off"])
        try waitFor("shell prompt") { $0.contains(Self.prompt) }
    }

    deinit { try? run(["kill-server"]) }

    /// Runs a tmux command on this session's server; returns its standard output.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = ["-L", socket] + arguments
        // Output goes to a file, not a pipe: `new-session` starts the tmux server, which inherits
        // the client's descriptors and would keep a pipe open (and a reader waiting) forever.
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out")
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try output.close()
        let data = try Data(contentsOf: outputURL)
        guard process.terminationStatus == 0 else { throw TmuxError.failed(arguments, process.terminationStatus) }
        return String(decoding: data, as: UTF8.self)
    }

    /// Types `keys` (tmux key names such as `Enter`, `Escape`, `C-s`, or literal text with `literal`).
    func send(_ keys: String..., literal: Bool = false) throws {
        try run(["send-keys", "-t", name] + (literal ? ["-l"] : []) + keys)
    }

    /// Types a shell command line and presses Enter.
    func shell(_ line: String) throws {
        try send(line, literal: true)
        try send("Enter")
    }

    /// The visible screen, one string per row.
    func capture() throws -> [String] {
        try run(["capture-pane", "-p", "-t", name]).components(separatedBy: "\n")
    }

    /// Captures the screen until `condition` holds, up to `timeout` seconds; returns that screen.
    /// (The program under test runs in another process, so its screen can only be observed.)
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 20, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var screen: [String] = []
        while Date() < deadline {
            screen = try capture()
            if condition(screen) { return screen }
            usleep(50_000)
        }
        throw TmuxError.timeout(what, screen.joined(separator: "\n"))
    }

    /// Waits until the screen contains `text`.
    @discardableResult
    func waitFor(text: String, timeout: Double = 20) throws -> [String] {
        try waitFor("\"\(text)\"", timeout: timeout) { screen in screen.contains { $0.contains(text) } }
    }

    enum TmuxError: Error, CustomStringConvertible {
        case failed([String], Int32)
        case timeout(String, String)

        var description: String {
            switch self {
            case .failed(let arguments, let status): return "tmux \(arguments.joined(separator: " ")) exited \(status)"
            case .timeout(let what, let screen): return "timed out waiting for \(what); the screen was:\n\(screen)"
            }
        }
    }
}

/// Where the built `quarry` executable is: next to the test bundle, else in `.build/debug`.
func quarryExecutable() -> String {
    let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
        let path = candidate.appendingPathComponent("quarry").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/quarry").path
}
