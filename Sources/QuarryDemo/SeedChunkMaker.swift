import Dispatch
import Foundation
import Quarry
import Synchronization

/// One chunk of a seed: its tickers and the prices of its quotes (one per 10 tickers).
struct SeedChunk: Sendable {
    /// The number of the first ticker after this chunk.
    var end: Int
    var tickers: BatchInsertRequest
    var quotePrices: [Value]
    /// When the chunk's tickers were updated and its quotes taken.
    var time: Value
}

/// Makes a seed's chunks in order, one ahead of the writer, on a serial queue: the same rows
/// as making them in turn (one random sequence, drawn chunk after chunk).
///
/// `@unchecked Sendable`: `generator` is touched only on `queue`, the hand-over of a made
/// chunk goes through `made` (a mutex) and `ready`.
final class SeedChunkMaker: @unchecked Sendable {
    private let queue = DispatchQueue(label: "quarry.demo.seed-chunks")
    private let ready = DispatchSemaphore(value: 0)
    private let made = Mutex<SeedChunk?>(nil)
    private var generator = SplitMix64(seed: 42)
    private let sectors: [ObjectID]
    private let rows: Int
    private let chunk: Int
    private let time: Value

    init(sectors: [ObjectID], rows: Int, chunk: Int, time: Date) {
        self.sectors = sectors
        self.rows = rows
        self.chunk = chunk
        self.time = .date(time)
    }

    /// Starts making the chunk of tickers from number `start`.
    func makeAhead(from start: Int) {
        queue.async { [self] in
            let chunk = make(from: start)
            made.withLock { $0 = chunk }
            ready.signal()
        }
    }

    /// Waits for the chunk started last and takes it.
    func next() -> SeedChunk {
        ready.wait()
        return made.withLock { made in
            defer { made = nil }
            return made!
        }
    }

    /// On `queue`: the tickers from number `start`.
    private func make(from start: Int) -> SeedChunk {
        dispatchPrecondition(condition: .onQueue(queue))
        let end = min(rows, start + chunk)
        var tickers = BatchInsertRequest(entityName: "Ticker", attributes: ["symbol", "name", "price", "volume", "updated"], relationships: ["sector"])
        tickers.reserveCapacity(end - start)
        var quotePrices: [Value] = []
        quotePrices.reserveCapacity((end - start) / 10 + 1)
        for n in start..<end {
            let price = Value.double(Double(generator.next() % 100_000) / 100)
            let volume = Value.integer(Int64(generator.next() % 1_000_000))
            let sector = sectors[Int(generator.next() % UInt64(sectors.count))]
            tickers.append([.string(DemoModel.symbol(n)), .string("Company \(n)"), price, volume, time], destinations: [sector])
            if n % 10 == 0 { quotePrices.append(price) }
        }
        return SeedChunk(end: end, tickers: tickers, quotePrices: quotePrices, time: time)
    }
}
