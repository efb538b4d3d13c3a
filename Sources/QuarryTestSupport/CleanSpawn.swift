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
}
