import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (`SIGINT`) and `SIGTERM` while a long command works (`import`, `export`, `convert`,
/// `migrate`, the demo's seed): instead of killing the process mid-write, the signal asks the
/// work to stop at its next save boundary (``during(onSignal:_:)`` calls `onSignal` on a
/// dispatch queue); the command then ends its progress line, says what was kept and exits with
/// 128 + the signal (130 for Ctrl-C). A second signal while the work winds down ends the
/// process at once, as an impatient Ctrl-C expects (each save is one transaction, so even then
/// the store holds whole saves only).
final class InterruptWatch: Sendable {
    private let received = Mutex<Int32?>(nil)

    /// The signal that arrived, if one did.
    var caught: Int32? { received.withLock { $0 } }

    /// The exit code a command stopped by ``caught`` ends with (128 + the signal).
    var exitCode: Int32 { 128 + (caught ?? SIGINT) }

    private init() {}

    /// Runs `body` with `SIGINT` and `SIGTERM` caught: the first one is recorded (``caught``)
    /// and calls `onSignal`; a second ends the process at once with 128 + the signal. A signal
    /// the process was started ignoring (a job run in the background by a shell ignores
    /// `SIGINT`) stays ignored. The earlier dispositions are back when `body` returns or throws.
    static func during<T>(onSignal: @escaping @Sendable () -> Void, _ body: (InterruptWatch) throws -> T) rethrows -> T {
        let watch = InterruptWatch()
        let numbers = [SIGINT, SIGTERM]
        let previous = numbers.map { signal($0, SIG_IGN) }
        let sources = zip(numbers, previous).compactMap { number, previous -> (any DispatchSourceSignal)? in
            guard !isIgnored(previous) else { return nil }
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let first = watch.received.withLock { received -> Bool in
                    guard received == nil else { return false }
                    received = number
                    return true
                }
                if first {
                    onSignal()
                } else {
                    // This handler runs on a dispatch thread, which blocks signals: the process
                    // ends here, as the default action would (the line under way ended first).
                    FileHandle.standardError.write(Data("\n".utf8))
                    _exit(128 + number)
                }
            }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            for (number, previous) in zip(numbers, previous) { signal(number, previous) }
        }
        return try body(watch)
    }

    /// Whether `handler` (what `signal` returned) is `SIG_IGN`.
    private static func isIgnored(_ handler: __sighandler_t?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
