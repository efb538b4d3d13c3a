import Foundation

/// What the threads of a running process are doing, for a failing end-to-end test's message.
///
/// The processes are found by a pattern on their whole command line (`pgrep -f`); each is
/// listed thread by thread (`ps -L`: name, state, kernel wait channel), then with every thread's
/// stack when a debugger is installed (`gdb`, else the toolchain's `lldb`). Never throws: what
/// could not be run is said in the text.
public enum ThreadDump {
    /// The threads of every process whose command line contains `pattern`.
    public static func of(commandLineContaining pattern: String) -> String {
        let found = (try? TmuxHarness.run(["pgrep", "-f", "--", pattern]).output) ?? ""
        let pids = found.split(whereSeparator: \.isNewline).map(String.init).filter { Int32($0) != getpid() }
        guard !pids.isEmpty else { return "(no process matches \(pattern))" }
        return pids.map { pid in
            let threads = (try? TmuxHarness.run(["ps", "-L", "-o", "tid,stat,wchan:32,comm", "-p", pid]).output) ?? "(ps failed)"
            return "process \(pid):\n\(threads)\n\(stacks(of: pid))"
        }.joined(separator: "\n")
    }

    /// Every thread's stack of process `pid`, through the first debugger found.
    private static func stacks(of pid: String) -> String {
        let debuggers: [[String]] = [
            ["timeout", "60", "gdb", "-p", pid, "-batch", "-ex", "thread apply all bt 20"],
            ["timeout", "60", "lldb", "-p", pid, "--batch", "-o", "thread backtrace all -c 20"],
        ]
        for command in debuggers {
            if let result = try? TmuxHarness.run(command), result.status == 0, result.output.contains("#") {
                return result.output.split(separator: "\n").filter { $0.contains("#") || $0.hasPrefix("Thread") || $0.contains("thread #") }
                    .joined(separator: "\n")
            }
        }
        return "(no debugger could attach: gdb and lldb absent or not permitted)"
    }
}
