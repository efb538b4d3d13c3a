import Foundation
import Quarry

/// Seeds a demo store: the sectors and the ``DemoState`` record through a context (one
/// transaction), then the tickers and quotes as batch inserts straight into the store, in
/// chunks (one transaction each), then marks the state record seeded.
///
/// A seed killed part way leaves the state record unseeded, which ``DemoState/seed(in:)``
/// reports as ``DemoState/Seed/interrupted(written:target:)``.
public struct DemoSeeder: Sendable {
    /// The store's writer coordinator.
    public let coordinator: StoreCoordinator
    /// Tickers per batch insert.
    public var chunk = 10_000

    /// Creates a seeder writing through `coordinator`.
    public init(coordinator: StoreCoordinator, chunk: Int = 10_000) {
        self.coordinator = coordinator
        self.chunk = max(1, chunk)
    }

    /// Seeds an empty store with the sectors and `rows` tickers, one quote per 10 tickers.
    ///
    /// - Parameter afterChunk: called with the number of tickers stored after each chunk
    ///   (tests use it to stop a seed part way).
    public func seed(rows: Int, afterChunk: (Int) throws -> Void = { _ in }) throws {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "seeder")
        let (sectors, stateID) = try context.performAndWait { () -> ([ObjectID], ObjectID) in
            var sectors = try context.objects(ofEntity: "Sector")
            if sectors.isEmpty {
                sectors = try DemoModel.sectorNames.map { name in
                    let s = try context.insertObject(entityName: "Sector")
                    try s.setValue(.string(name), forKey: "name")
                    return s
                }
            }
            let state = try context.insertObject(entityName: DemoState.entityName)
            try state.setValues([DemoState.Key.seedRows: .integer(Int64(rows)), DemoState.Key.seeded: .bool(false)])
            try context.save()
            return (sectors.map(\.objectID), state.objectID)
        }
        var generator = SplitMix64(seed: 42)
        let now = Value.date(Date())
        var i = 0
        while i < rows {
            let end = min(rows, i + chunk)
            var tickers = BatchInsertRequest(entityName: "Ticker", attributes: ["symbol", "name", "price", "volume", "updated"], relationships: ["sector"])
            tickers.reserveCapacity(end - i)
            var quotePrices: [Value] = []
            for n in i..<end {
                let price = Value.double(Double(generator.next() % 100_000) / 100)
                let volume = Value.integer(Int64(generator.next() % 1_000_000))
                let sector = sectors[Int(generator.next() % UInt64(sectors.count))]
                tickers.append([.string(DemoModel.symbol(n)), .string("Company \(n)"), price, volume, now], destinations: [sector])
                if n % 10 == 0 { quotePrices.append(price) }
            }
            let saved = try coordinator.batchInsert(tickers)
            var quotes = BatchInsertRequest(entityName: "Quote", attributes: ["price", "time"], relationships: ["ticker"])
            quotes.reserveCapacity(quotePrices.count)
            for (q, price) in quotePrices.enumerated() { quotes.append([price, now], destinations: [saved.inserted[q * 10]]) }
            try coordinator.batchInsert(quotes)
            i = end
            try afterChunk(i)
        }
        try context.performAndWait {
            let state = try context.existingObject(with: stateID)
            try state.setValues([DemoState.Key.seeded: .bool(true), DemoState.Key.nextSymbol: .integer(Int64(rows))])
            try context.save()
        }
    }
}
