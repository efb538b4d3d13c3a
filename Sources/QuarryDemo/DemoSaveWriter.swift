import Foundation
import Quarry

/// Writes one importer save into an importer context: random price updates, new tickers with
/// symbols minted from the store's ``DemoState`` counter, and the counter itself, saved in one
/// transaction. Use on the context's queue.
struct DemoSaveWriter {
    let context: ObjectContext
    let tickerEntity: Int
    let sectors: [ObjectID]
    let stateID: ObjectID
    /// The counter value of the last save refused for a symbol collision, and how far past the
    /// counter the next attempt mints (a collision with an unchanged counter means the symbols
    /// were taken some other way, so the next attempt skips them).
    private var lastRefusedCounter: Int64?
    private var skip: Int64 = 0

    /// Reads the ticker entity, the sectors and the state record.
    /// - Throws: ``DemoError/unrecordedSeed(path:tickers:)`` when the store has no state record.
    init(context: ObjectContext) throws {
        self.context = context
        tickerEntity = try context.model.requireEntity("Ticker").index
        sectors = try context.objects(ofEntity: "Sector").map(\.objectID)
        guard let state = try context.objects(ofEntity: DemoState.entityName).first else {
            throw DemoError.unrecordedSeed(path: context.coordinatorStorePath, tickers: try context.count(ofEntity: "Ticker"))
        }
        stateID = state.objectID
    }

    /// Updates `updates` random tickers, inserts `inserts` new ones and saves; returns what the
    /// save stored. On failure the context is left with the attempt's changes (reset it).
    mutating func save(updates: Int, inserts: Int, generator: inout SplitMix64) throws -> DemoSave {
        let state = try context.existingObject(with: stateID)
        let counter = try DemoState.integer(state, DemoState.Key.nextSymbol)
        let save = try DemoState.integer(state, DemoState.Key.saves) + 1
        let first = counter + skip
        let maxKey = UInt64(max(1, first))
        var updated = Set<ObjectID>()
        for _ in 0..<updates {
            let id = ObjectID(entityIndex: tickerEntity, primaryKey: Int64(generator.next() % maxKey) + 1)
            guard let ticker = try? context.existingObject(with: id) else { continue }
            let price = (try? ticker.value(forKey: "price")).flatMap { if case .double(let d) = $0 { return d } else { return nil } } ?? 10
            let change = (Double(Int(generator.next() % 2001)) - 1000) / 10_000 * price
            try ticker.setValues([
                "price": .double(max(0.01, (price + change) * 100).rounded() / 100),
                "change": .double((change * 100).rounded() / 100),
                "volume": .integer(Int64(generator.next() % 5_000_000)),
                "updated": .date(Date()),
            ])
            updated.insert(id)
        }
        for n in first..<(first + Int64(inserts)) {
            let ticker = try context.insertObject(entityName: "Ticker")
            try ticker.setValues([
                "symbol": .string(DemoModel.symbol(Int(n))),
                "name": .string("Company \(n)"),
                "price": .double(Double(generator.next() % 100_000) / 100),
                "volume": .integer(Int64(generator.next() % 1_000_000)),
                "updated": .date(Date()),
                "saveNumber": .integer(save),
            ])
            if !sectors.isEmpty {
                try ticker.setObject(context.object(with: sectors[Int(generator.next() % UInt64(sectors.count))]), forKey: "sector")
            }
        }
        try state.setValues([
            DemoState.Key.nextSymbol: .integer(first + Int64(inserts)),
            DemoState.Key.saves: .integer(save),
        ])
        let report: SaveReport
        do {
            report = try context.saveAndReport()
        } catch StoreError.uniquenessViolation(let entity, let keys) {
            throw refused(counter: counter, inserts: inserts, entity: entity, keys: keys)
        } catch let error as ConstraintConflictError {
            // Found before writing (the context refuses clashes rather than merging them).
            let conflict = error.conflicts.first
            throw refused(counter: counter, inserts: inserts, entity: conflict?.entityName ?? "Ticker", keys: conflict?.constraint ?? ["symbol"])
        }
        lastRefusedCounter = nil
        skip = 0
        context.reset()
        return DemoSave(number: Int(save), inserted: inserts, updated: updated.count, resolvedConflicts: report.resolvedConflicts)
    }

    /// Notes a save refused because another importer stored its symbols first, and the error
    /// the import loop retries on.
    private mutating func refused(counter: Int64, inserts: Int, entity: String, keys: [String]) -> StoreError {
        if lastRefusedCounter == counter { skip += Int64(inserts) } else { skip = 0 }
        lastRefusedCounter = counter
        return StoreError.uniquenessViolation(entity: entity, keys: keys)
    }
}

extension ObjectContext {
    /// The path of the store this context's coordinator writes (a PostgreSQL store's URL,
    /// without its password), for messages.
    var coordinatorStorePath: String {
        guard let url = coordinator.store.url else { return "memory" }
        return url.isFileURL ? url.path : url.absoluteString
    }
}
