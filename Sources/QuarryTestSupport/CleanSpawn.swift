import Foundation

/// Starts child processes the way a terminal would: no signal blocked, every signal at its
/// default action.
///
/// Tests run on libdispatch worker threads, which block most signals (SIGHUP, SIGINT, SIGTERM,
/// SIGWINCH, SIGTSTP…), and a spawned child inherits its thread's mask and ignored signals. A
/// shell started that way in tmux never ends on SIGHUP, so its tmux server outlives the test, and
/// a program under test would see signals only as a real terminal never delivers them.
enum CleanSpawn {
    /// `posix_spawn` (or `posix_spawnp` when `searchPath`) with a cleared signal mask and default
    /// signal actions; returns its status (0: started).
    static func spawn(_ pid: inout pid_t, _ path: String, searchPath: Bool, actions: inout posix_spawn_file_actions_t,
                      argv: [UnsafeMutablePointer<CChar>?], envp: [UnsafeMutablePointer<CChar>?]) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in 1..<32 where signalNumber != SIGKILL && signalNumber != SIGSTOP {
            sigaddset(&defaults, Int32(signalNumber))
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return searchPath
            ? posix_spawnp(&pid, path, &actions, &attributes, argv, envp)
            : posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    }

    /// Runs `arguments` to its end with standard input from `/dev/null`, standard output to
    /// `outputPath` and standard error to `errorPath` (`/dev/null` when nil); returns the exit
    /// status (128 + the signal number when a signal ended it).
    static func run(_ arguments: [String], searchPath: Bool, environment: [String: String],
                    outputPath: String, errorPath: String?, inputPath: String = "/dev/null") throws -> Int32 {
        waitForExit(try start(arguments, searchPath: searchPath, environment: environment,
                              outputPath: outputPath, errorPath: errorPath, inputPath: inputPath))
    }

    /// Starts `arguments` as ``run(_:searchPath:environment:outputPath:errorPath:inputPath:)``
    /// does, without waiting; returns its process ID (reap it with ``waitForExit(_:)``).
    static func start(_ arguments: [String], searchPath: Bool, environment: [String: String],
                      outputPath: String, errorPath: String?, inputPath: String = "/dev/null") throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let errorPath {
            posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawnStatus = spawn(&pid, arguments[0], searchPath: searchPath, actions: &actions, argv: argv, envp: envp)
        guard spawnStatus == 0 else { throw TmuxHarness.SpawnError(command: arguments[0], code: spawnStatus) }
        return pid
    }

    /// Waits for the child `pid` to end; returns its exit status (128 + the signal number when
    /// a signal ended it).
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
