import Foundation
import Quarry
import Synchronization

/// The demo's live importer: a background thread that keeps inserting and updating tickers
/// through one `importerContext()`, saving a chunk every tick, at about `rate` rows a second.
///
/// Each save reaches the store through the writer coordinator, so the stack's smart merge brings
/// it to the main context and the browser's table updates live.
final class DemoImporter: Sendable {
    private struct State {
        var running = false
        var rows = 0
        var saves = 0
        var startedAt: Date?
        var lastError: String?
    }

    private let stack: PersistentStack
    /// Rows written per second (inserts and updates together).
    let rate: Int
    /// Seconds between two saves.
    let tick: Double
    private let state = Mutex(State())
    private let stopped = DispatchSemaphore(value: 0)

    /// Creates an importer writing about `rate` rows a second into `stack`.
    init(stack: PersistentStack, rate: Int, tick: Double = 0.25) {
        self.stack = stack
        self.rate = max(1, rate)
        self.tick = tick
    }

    /// Starts the importer thread.
    func start() {
        let alreadyRunning = state.withLock { s -> Bool in
            defer { s.running = true; s.startedAt = Date() }
            return s.running
        }
        guard !alreadyRunning else { return }
        let thread = Thread { [self] in run() }
        thread.name = "quarry.demo-importer"
        thread.start()
    }

    /// Stops the importer and waits for its current save to finish.
    func stop() {
        let wasRunning = state.withLock { s -> Bool in
            defer { s.running = false }
            return s.running
        }
        if wasRunning { stopped.wait() }
    }

    /// "import 200 rows/s" for the status line (or the last error).
    var statusText: String {
        state.withLock { s in
            if let error = s.lastError { return "import stopped: \(error)" }
            guard let start = s.startedAt else { return "" }
            let seconds = max(0.001, Date().timeIntervalSince(start))
            return "import \(Int((Double(s.rows) / seconds).rounded())) rows/s"
        }
    }

    private func run() {
        defer { stopped.signal() }
        let context = stack.importerContext()
        var generator = SplitMix64(seed: UInt64(Date().timeIntervalSince1970 * 1000))
        let perTick = max(1, Int((Double(rate) * tick).rounded()))
        do {
            let (entityIndex, sectors, firstNew) = try context.performAndWait { () throws -> (Int, [ObjectID], Int) in
                let entity = try context.model.requireEntity("Ticker")
                let sectors = try context.objects(ofEntity: "Sector").map(\.objectID)
                return (entity.index, sectors, try context.count(ofEntity: "Ticker"))
            }
            var nextSymbol = firstNew
            while state.withLock({ $0.running }) {
                let began = Date()
                try context.performAndWait {
                    let maxKey = Int64(max(1, nextSymbol))
                    let inserts = max(1, perTick / 10)
                    for _ in 0..<(perTick - inserts) {
                        let id = ObjectID(entityIndex: entityIndex, primaryKey: Int64(generator.next() % UInt64(maxKey)) + 1)
                        guard let ticker = try? context.existingObject(with: id) else { continue }
                        let price = (try? ticker.value(forKey: "price")).flatMap { if case .double(let d) = $0 { return d } else { return nil } } ?? 10
                        let change = (Double(Int(generator.next() % 2001)) - 1000) / 10_000 * price
                        try ticker.setValues([
                            "price": .double(max(0.01, (price + change) * 100).rounded() / 100),
                            "change": .double((change * 100).rounded() / 100),
                            "volume": .integer(Int64(generator.next() % 5_000_000)),
                            "updated": .date(Date()),
                        ])
                    }
                    for _ in 0..<inserts {
                        let ticker = try context.insertObject(entityName: "Ticker")
                        try ticker.setValues([
                            "symbol": .string(DemoSeeder.symbol(nextSymbol)),
                            "name": .string("Company \(nextSymbol)"),
                            "price": .double(Double(generator.next() % 100_000) / 100),
                            "volume": .integer(Int64(generator.next() % 1_000_000)),
                            "updated": .date(Date()),
                        ])
                        if !sectors.isEmpty {
                            try ticker.setObject(context.object(with: sectors[Int(generator.next() % UInt64(sectors.count))]), forKey: "sector")
                        }
                        nextSymbol += 1
                    }
                    try context.save()
                    context.reset()
                }
                state.withLock { $0.rows += perTick; $0.saves += 1 }
                let rest = tick - Date().timeIntervalSince(began)
                if rest > 0 { Thread.sleep(forTimeInterval: rest) }  // pacing, not waiting for work
            }
        } catch {
            state.withLock { $0.lastError = "\(error)" }
        }
    }
}
