import Foundation

/// A built executable running in the background, as a terminal would start it (see
/// ``CleanSpawn``), its outputs in temporary files: for tests that run several processes at
/// once and signal them (`kill -9` mid-transaction).
public final class SpawnedProcess: @unchecked Sendable {
    // `exitStatus` is guarded by `lock`; everything else is immutable after init.
    /// The process ID.
    public let pid: pid_t
    private let outputPath: String
    private let errorPath: String
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Starts `executable` with `arguments` and this process's environment merged with
    /// `environment`; standard input is `/dev/null`.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-spawned-\(UUID().uuidString)").path
        outputPath = base + ".out"
        errorPath = base + ".err"
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        pid = try CleanSpawn.start([executable.path] + arguments, searchPath: false, environment: merged,
                                   outputPath: outputPath, errorPath: errorPath)
    }

    deinit {
        if lock.withLock({ exitStatus == nil }) {
            kill(pid, SIGKILL)
            _ = CleanSpawn.waitForExit(pid)
        }
        for path in [outputPath, errorPath] { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Whether the process has not ended (nor been reaped) yet.
    public var isRunning: Bool {
        lock.withLock {
            guard exitStatus == nil else { return false }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
                return false
            }
            return true
        }
    }

    /// Sends `signal` (`SIGKILL`: ends it at once, wherever it is).
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits for the process to end; returns its exit status (128 + the signal number when a
    /// signal ended it).
    @discardableResult
    public func waitForExit() -> Int32 {
        lock.withLock {
            if let exitStatus { return exitStatus }
            let status = CleanSpawn.waitForExit(pid)
            exitStatus = status
            return status
        }
    }

    /// Everything written to standard output so far.
    public var standardOutput: String { read(outputPath) }
    /// Everything written to standard error so far.
    public var standardError: String { read(errorPath) }

    private func read(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
}
