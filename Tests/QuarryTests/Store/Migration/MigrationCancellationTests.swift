import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// A migration asked to stop (`isCancelled`, what `quarry migrate` answers after Ctrl-C) rolls
/// its transaction back: the store keeps its old model and every row, and migrates later.
struct MigrationCancellationTests {
    let fixture = MigrationFixture()

    static let items = """
        {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "count", "type": "Integer 16"}]}]}
        """

    @Test func aCancelledMigrationLeavesTheOldModelAndRows() throws {
        let v1 = try MigrationFixture.model(Self.items)
        try fixture.create(v1) { context in
            for i in 0..<120 { try context.make("Item", ["name": .string("n\(i)"), "count": .integer(Int64(i))]) }
        }
        // A type change: the table is copied, so the migration reports progress (and is asked).
        let v2 = try MigrationFixture.model(Self.items.replacingOccurrences(of: "\"Integer 16\"", with: "\"Double\""))
        var asked = 0
        #expect(throws: CancellationError.self) {
            try SQLiteStore.migrate(url: fixture.url, to: v2, isCancelled: {
                asked += 1
                return true
            })
        }
        #expect(asked == 1)
        #expect(try SQLiteStore.readMetadata(url: fixture.url).model.versionHash == v1.versionHash)
        let counts = try DatabaseQueue(path: fixture.url.path).read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Item"), try String.fetchOne(db, sql: "SELECT typeof(count) FROM Item LIMIT 1"))
        }
        #expect(counts.0 == 120)
        #expect(counts.1 == "integer")
        // Not stopped, it migrates.
        try SQLiteStore.migrate(url: fixture.url, to: v2)
        #expect(try SQLiteStore.readMetadata(url: fixture.url).model.versionHash == v2.versionHash)
    }
}
