import Foundation

/// The lines typed into the browser's prompts (filter `f`, search `/`, command line `:`),
/// oldest first, shared by the three: ↑/↓ in any prompt walk them. Kept between runs in a file
/// (`$XDG_STATE_HOME/quarry/history`, one line each), the newest ``limit`` only.
///
/// The file is read once at start and appended to as lines are entered; a file that cannot be
/// read or written only loses the history, never the browser (the error is kept in
/// ``lastError`` for the status line).
@MainActor
final class PromptHistory {
    /// How many lines are kept.
    static let limit = 500
    /// The lines, oldest first.
    private(set) var lines: [String]
    /// Where they are kept, if anywhere.
    let file: URL?
    /// Why the file could not be read or written, if it could not.
    private(set) var lastError: String?

    /// The history kept in `file` (none is read or written for `nil`).
    init(file: URL?) {
        self.file = file
        lines = []
        guard let file, FileManager.default.fileExists(atPath: file.path) else { return }
        do {
            let text = try String(contentsOf: file, encoding: .utf8)
            lines = Array(text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init).suffix(Self.limit))
        } catch {
            lastError = "cannot read the prompt history \(file.path): \(error.localizedDescription)"
        }
    }

    /// The default file: `$XDG_STATE_HOME/quarry/history`, else `~/.local/state/quarry/history`.
    nonisolated static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("quarry/history")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/quarry/history")
    }

    /// Records `line` (trimmed; empty lines and a repeat of the newest are skipped) and
    /// appends it to the file.
    func add(_ line: String) {
        let line = line.trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty, !line.contains("\n"), lines.last != line else { return }
        lines.append(line)
        if lines.count > Self.limit { lines.removeFirst(lines.count - Self.limit) }
        guard let file else { return }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            if lines.count == Self.limit || !FileManager.default.fileExists(atPath: file.path) {
                // Rewritten whole now and then, so the file stays at most `limit` lines.
                try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            } else {
                let handle = try FileHandle(forWritingTo: file)
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: Data((line + "\n").utf8))
            }
        } catch {
            lastError = "cannot write the prompt history \(file.path): \(error.localizedDescription)"
        }
    }
}
