import Foundation
import Quarry
import QuarryDemo
import Synchronization

/// `quarry demo --import-only`: the live importer without a user interface. It prints one line
/// per save that reached the store (``DemoSave``), as the save lands (and one per save refused
/// for a symbol collision, ``DemoImporter/collisionLine``), and runs until an error
/// stops it or the process gets `SIGINT` or `SIGTERM`: then the importer finishes the save under
/// way and the totals are printed (``DemoImporterTotals``). The caller then exits as a shell
/// expects of a process a signal ended (128 + the signal: 130, 143), so scripts can tell.
enum HeadlessImport {
    /// The signal that stopped the importer, set by the signal handlers on a global queue.
    private final class StopSignal: Sendable {
        let number = Mutex<Int32?>(nil)
    }

    /// Runs an importer writing `rate` rows a second into `stack` until stopped.
    /// - Returns: the importer, stopped (its ``DemoImporter/error`` says why if an error did
    ///   it), and the signal that stopped it (`nil` when an error did).
    static func run(stack: PersistentStack, rate: Int) -> (importer: DemoImporter, signal: Int32?) {
        let received = StopSignal()
        let importer = DemoImporter(stack: stack, rate: rate) { event in
            // Unbuffered: a process killed mid-run has printed every save that reached the store.
            if case .saved(let save) = event { FileHandle.standardOutput.write(Data("\(save)\n".utf8)) }
            if case .refusedForCollision = event { FileHandle.standardOutput.write(Data("\(DemoImporter.collisionLine)\n".utf8)) }
        }
        let stopSignals = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                received.number.withLock { if $0 == nil { $0 = number } }
                importer.stop()
            }
            source.resume()
            return source
        }
        defer {
            for source in stopSignals { source.cancel() }
        }
        importer.start()
        importer.waitUntilStopped()
        FileHandle.standardOutput.write(Data("\(importer.totals)\n".utf8))
        return (importer, received.number.withLock { $0 })
    }
}
