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
    /// When the seeded tickers were updated and their quotes taken (tests fix it: the screen
    /// goldens show it).
    public var time: Date

    /// Creates a seeder writing through `coordinator`, its rows dated `time`.
    public init(coordinator: StoreCoordinator, chunk: Int = 10_000, time: Date = Date()) {
        self.coordinator = coordinator
        self.chunk = max(1, chunk)
        self.time = time
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
        // The next chunk's rows are made on a queue of their own while this one is written
        // (writing leaves the other core free): a seed of 100,000 took a median 0.567 s this
        // way against 0.618 s making each chunk before writing it (15 alternating runs).
        let maker = SeedChunkMaker(sectors: sectors, rows: rows, chunk: chunk, time: time)
        if rows > 0 { maker.makeAhead(from: 0) }
        var i = 0
        while i < rows {
            let made = maker.next()
            if made.end < rows { maker.makeAhead(from: made.end) }
            let saved = try coordinator.batchInsert(made.tickers)
            var quotes = BatchInsertRequest(entityName: "Quote", attributes: ["price", "time"], relationships: ["ticker"])
            quotes.reserveCapacity(made.quotePrices.count)
            for (q, price) in made.quotePrices.enumerated() { quotes.append([price, made.time], destinations: [saved.inserted[q * 10]]) }
            try coordinator.batchInsert(quotes)
            i = made.end
            try afterChunk(i)
        }
        try context.performAndWait {
            let state = try context.existingObject(with: stateID)
            try state.setValues([DemoState.Key.seeded: .bool(true), DemoState.Key.nextSymbol: .integer(Int64(rows))])
            try context.save()
        }
    }
}
