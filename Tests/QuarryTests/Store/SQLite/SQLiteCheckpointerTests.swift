import Dispatch
import Foundation
import GRDB
import Synchronization
import Testing
@_spi(Benchmarks) @testable import Quarry
import QuarryTestSupport

/// The store's own checkpointing: after the commit, off the saving call, from 1,000 frames on.
@Suite struct SQLiteCheckpointerTests {
    let dir = TemporaryDirectory()

    /// A pool whose connections carry `checkpointer`'s WAL hook, as a store's do.
    func pool(_ checkpointer: SQLiteCheckpointer) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.prepareDatabase { checkpointer.install(on: $0) }
        let pool = try DatabasePool(path: dir.file("log.sqlite").path, configuration: configuration)
        checkpointer.attach(pool)
        return pool
    }

    @Test func aCommitOfMoreThanAThousandFramesIsCheckpointedAfterItReturns() throws {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<(frames: Int, copied: Int)?>(nil)
        let checkpointer = SQLiteCheckpointer(delay: .milliseconds(0)) { frames, copied in
            result.withLock { $0 = (frames, copied) }
            done.signal()
        }
        let pool = try pool(checkpointer)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, payload BLOB)")
        }
        #expect(checkpointer.lastCommitUptime > 0, "the hook saw the commit")
        let before = checkpointer.lastCommitUptime
        // About 1,500 pages of 4 KiB in one commit.
        try pool.write { db in
            for i in 0..<1_500 { try db.execute(sql: "INSERT INTO t VALUES (?, zeroblob(4000))", arguments: [i]) }
        }
        #expect(checkpointer.lastCommitUptime > before)
        #expect(done.wait(timeout: .now() + 60) == .success, "no checkpoint followed the commit")
        let (frames, copied) = try #require(result.withLock { $0 })
        #expect(frames >= 1_000)
        #expect(copied == frames, "with no reader behind, the whole log reaches the file")
        let rows = try pool.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") }
        #expect(rows == 1_500)
    }

    @Test func aStoreRecordsWhenItsSavesCommit() throws {
        let store = try SQLiteStore(url: dir.file("store.sqlite"), model: TestModels.tickers())
        let make = ChangeMaker(model: store.model)
        try store.insert([make.insert("Sector", ["name": .string("Energy")])])
        let first = store.lastCommitUptime
        #expect(first > 0)
        try store.insert([make.insert("Sector", ["name": .string("Utilities")])])
        #expect(store.lastCommitUptime > first)
    }
}
