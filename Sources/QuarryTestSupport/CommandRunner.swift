import Foundation

/// Runs a built executable to its end and captures its exit status and both output streams.
public enum CommandRunner {
    /// What a finished command left behind.
    public struct Result: Sendable {
        /// The exit status (128 + the signal number when a signal ended it).
        public var status: Int32
        /// Everything written to standard output.
        public var standardOutput: String
        /// Everything written to standard error.
        public var standardError: String
    }

    /// Runs `executable` with `arguments`, standard input from `input` (`/dev/null` when `nil`).
    ///
    /// Spawned with `posix_spawn` and outputs through temporary files, for the reasons
    /// ``TmuxHarness/run(_:)`` gives.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> Result {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-run-\(UUID().uuidString)").path
        let outPath = base + ".out", errPath = base + ".err", inPath = base + ".in"
        defer { for p in [outPath, errPath, inPath] { try? FileManager.default.removeItem(atPath: p) } }
        if let input { try Data(input.utf8).write(to: URL(fileURLWithPath: inPath)) }
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let exitStatus = try CleanSpawn.run([executable.path] + arguments, searchPath: false, environment: merged,
                                            outputPath: outPath, errorPath: errPath, inputPath: input == nil ? "/dev/null" : inPath)
        func read(_ path: String) -> String { String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        return Result(status: exitStatus, standardOutput: read(outPath), standardError: read(errPath))
    }
}
