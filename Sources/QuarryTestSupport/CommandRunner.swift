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

    /// Runs `executable` with `arguments`, standard input from `/dev/null`.
    ///
    /// Spawned with `posix_spawn` and outputs through temporary files, for the reasons
    /// ``TmuxHarness/run(_:)`` gives.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-run-\(UUID().uuidString)").path
        let outPath = base + ".out", errPath = base + ".err"
        defer { for p in [outPath, errPath] { try? FileManager.default.removeItem(atPath: p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawnStatus = CleanSpawn.spawn(&pid, executable.path, searchPath: false, actions: &actions, argv: argv, envp: envp)
        guard spawnStatus == 0 else { throw TmuxHarness.SpawnError(command: executable.path, code: spawnStatus) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        func read(_ path: String) -> String { String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: exitStatus, standardOutput: read(outPath), standardError: read(errPath))
    }
}
