import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

/// The look Quarry takes before opening a store (``SQLiteStore/peek(path:busyTimeout:)``) meets
/// other connections mid-commit, mid-checkpoint and mid-close (deleting `-shm` and `-wal`):
/// none of that may be mistaken for a foreign log or a broken file.
@Suite("SQLite store: the look before opening is not fooled by a writer at work")
struct SQLiteStorePeekRaceTests {
    @Test("a store that other connections open, write, checkpoint and close meanwhile is always seen as itself")
    func peekDuringWritesAndCloses() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("store.sqlite")
        let model = TestModels.tickers()
        do { _ = try SQLiteStore(url: url, model: model) }
        let rounds = 60
        let writerDone = DispatchSemaphore(value: 0)
        // Opens the store, saves a few hundred rows (a log of a few hundred frames) and closes
        // it (checkpointing the log and deleting it with the -shm), `rounds` times.
        let writerFailure = ErrorBox()
        Thread.detachNewThread {
            defer { writerDone.signal() }
            do {
                for round in 0..<rounds {
                    let store = try SQLiteStore(url: url, model: model)
                    let make = ChangeMaker(model: store.model)
                    _ = try store.insert((0..<300).map { make.insert("Sector", ["name": .string("S\(round).\($0)")]) })
                }
            } catch {
                writerFailure.set(error)
            }
        }
        var looks = 0
        var failures: [String] = []
        while writerDone.wait(timeout: .now()) == .timedOut {
            looks += 1
            do {
                let found = try SQLiteStore.peek(path: url.path)
                if found.metadata == nil { failures.append("look \(looks): no metadata") }
            } catch {
                failures.append("look \(looks): \(error)")
            }
        }
        #expect(writerFailure.error == nil, "\(String(describing: writerFailure.error))")
        #expect(looks > 0)
        #expect(failures.isEmpty, "\(failures.count) of \(looks) looks failed, first: \(failures.first.map { String($0.prefix(400)) } ?? "")")
    }
}

/// One error set by another thread (the lock orders the set before the read).
private final class ErrorBox: Sendable {
    private let stored = Mutex<(any Error)?>(nil)
    var error: (any Error)? { stored.withLock { $0 } }
    func set(_ error: any Error) { stored.withLock { $0 = error } }
}
