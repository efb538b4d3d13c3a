import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// A model's entities never take persistent history's table names.
@Suite("Persistent history: table names")
struct HistoryTableNamesTests {
    @Test("an entity named like a history table is stored under a safe name, and history still records its saves")
    func entityNamedLikeHistoryTable() throws {
        var b = ModelBuilder()
        b.entity("Z_HISTORYCHANGE") { e in e.attribute("note", .string) }
        let model = try ManagedObjectModel(b.definition)
        let directory = TemporaryDirectory()
        let store = try SQLiteStore(url: directory.file("names.sqlite"), model: model)
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store), name: "names")
        try context.performAndWait {
            try context.insertObject(entityName: "Z_HISTORYCHANGE").setValue(.string("n"), forKey: "note")
            try context.save()
        }
        let tables = try store.pool.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
        #expect(tables.contains("Q_Z_HISTORYCHANGE"))
        let transactions = try store.history(after: nil, limit: nil).transactions
        #expect(transactions.map(\.changes.count) == [1])
        #expect(transactions.first?.changes.first?.objectID.entityIndex == Int32(model.entity(named: "Z_HISTORYCHANGE")!.index))
    }
}
