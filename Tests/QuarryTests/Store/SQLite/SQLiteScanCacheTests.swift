import Foundation
import GRDB
import Testing
@testable import Quarry

/// A pass over keyed rows runs with a small page cache and leaves the connection's own
/// setting as it was.
@Suite struct SQLiteScanCacheTests {
    @Test("the page cache is small during a scan and restored after, also when the scan throws")
    func scanCacheIsRestored() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            try db.execute(sql: "PRAGMA cache_size = -3000")
            let during = try SQLiteStore.withScanCache(db) { try Int.fetchOne(db, sql: "PRAGMA cache_size") }
            #expect(during == -SQLiteStore.scanCacheKiB)
            #expect(try Int.fetchOne(db, sql: "PRAGMA cache_size") == -3000)
            struct Stop: Error {}
            #expect(throws: Stop.self) { try SQLiteStore.withScanCache(db) { throw Stop() } }
            #expect(try Int.fetchOne(db, sql: "PRAGMA cache_size") == -3000)
        }
    }
}
