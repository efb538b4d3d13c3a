import Foundation
import GRDB

/// Another connection holding an SQLite store's write lock (`BEGIN IMMEDIATE`) until
/// ``release()``: what another process writing to the store looks like to its writers, who
/// wait their busy timeout and then find it busy (the demo importer pauses then).
///
/// `@unchecked Sendable`: the connection is a GRDB `DatabaseQueue`, which serialises every
/// access on its own queue; `released` is read and written under that queue too.
public final class StoreWriteLock: @unchecked Sendable {
    private let queue: DatabaseQueue
    private var released = false

    /// Takes the write lock of the SQLite file at `url` (waiting up to `timeout` seconds for a
    /// writer already in a transaction).
    public init(url: URL, timeout: Double = 60) throws {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true  // the transaction outlives one database access
        configuration.busyMode = .timeout(timeout)
        queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
    }

    /// Ends the transaction, releasing the lock (once; later calls do nothing).
    public func release() throws {
        try queue.inDatabase { db in
            guard !released else { return }
            released = true
            try db.execute(sql: "ROLLBACK")
        }
    }

    // A lock never released by the test goes with its connection anyway: best effort.
    deinit { try? release() }
}
