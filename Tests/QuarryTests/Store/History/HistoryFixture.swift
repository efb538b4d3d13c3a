import Foundation
import GRDB
@testable import Quarry
import QuarryTestSupport

/// A ticker store on disk whose `Ticker.symbol` and `Ticker.price` are tombstone attributes.
struct HistoryFixture {
    let directory = TemporaryDirectory()
    var url: URL { directory.file("history.sqlite") }

    /// The ticker model with `symbol` and `price` kept in history on deletion.
    static let model: ManagedObjectModel = {
        var definition = TestModels.tickerDefinition()
        let e = definition.entities.firstIndex { $0.name == "Ticker" }!
        for (a, attribute) in definition.entities[e].attributes.enumerated() where ["symbol", "price"].contains(attribute.name) {
            definition.entities[e].attributes[a].preservesValueInHistoryOnDeletion = true
        }
        return try! ManagedObjectModel(definition)
    }()

    func stack(records: Bool = true, readOnly: Bool = false) throws -> PersistentStack {
        var options = PersistentStack.Options()
        options.storeURL = url
        options.recordsPersistentHistory = records
        options.readOnly = readOnly
        return try PersistentStack(model: Self.model, options: options)
    }

    func store(records: Bool = true, readOnly: Bool = false, origin: UUID? = nil) throws -> SQLiteStore {
        try SQLiteStore(url: url, model: Self.model, options: .init(readOnly: readOnly, recordsHistory: records, historyOrigin: origin))
    }

    /// Inserts tickers named `symbols` through a context called `name`; returns their IDs.
    @discardableResult
    static func insertTickers(_ symbols: [String], into coordinator: StoreCoordinator, name: String? = "importer") throws -> [ObjectID] {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: name)
        return try context.performAndWait {
            let objects = try symbols.map { symbol in
                let t = try context.insertObject(entityName: "Ticker")
                try t.setValues(["symbol": .string(symbol), "price": .double(1)])
                return t
            }
            try context.save()
            return objects.map(\.objectID)
        }
    }

    /// Runs `body` on a fresh context on `coordinator`, then saves it.
    static func edit(_ coordinator: StoreCoordinator, name: String? = "editor", _ body: (ObjectContext) throws -> Void) throws {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: name)
        try context.performAndWait {
            try body(context)
            try context.save()
        }
    }

    /// The rows of the history tables, counted with plain SQL through `store`'s connections
    /// (never a connection of its own: closing it would drop the process's locks on the file).
    static func rawCounts(_ store: SQLiteStore) throws -> (transactions: Int, changes: Int) {
        try store.pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM Z_HISTORYTRANSACTION")!, try Int.fetchOne(db, sql: "SELECT count(*) FROM Z_HISTORYCHANGE")!)
        }
    }
}
