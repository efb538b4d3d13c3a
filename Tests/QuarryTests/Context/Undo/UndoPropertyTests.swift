import Foundation
import Testing
@testable import Quarry
import QuarryDemo
import QuarryTestSupport

/// What the rows should be: tickers by symbol (price, sector name, tag labels) and sectors.
private struct GraphModel: Equatable {
    var tickers: [String: TickerRow] = [:]
    var sectors: Set<String> = []

    struct TickerRow: Equatable {
        var price: Double
        var sector: String?
        var tags: Set<String>
    }
}

@Suite("Undo and redo: random sequences")
struct UndoPropertyTests {
    static let tags = ["hot", "cold"]

    @Test("1,000 random edit / undo / redo / save sequences end with the store's rows equal to the model",
          arguments: [StoreKind.sqlite, .memory])
    func randomSequences(kind: StoreKind) throws {
        let store = TestStore(kind)
        let setUp = try store.context("setup")
        try setUp.performAndWait {
            for label in Self.tags { let tag = try setUp.insert(TickerTag.self); tag.label = label }
            for name in ["S0", "S1"] { let s = try setUp.insert(Sector.self); s.name = name }
            try setUp.save()
        }
        var model = GraphModel(sectors: ["S0", "S1"])
        var rng = SplitMix64(seed: 39)
        var counter = 0
        var history: [String] = []
        let coordinator = try store.coordinator("sequences")
        let reader = try store.context("reader")
        for sequence in 0..<1_000 {
            // A new context (and undo manager) per sequence, over one coordinator.
            let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "seq\(sequence)")
            context.performAndWait { context.undoManager = ContextUndoManager() }
            var undoStates: [GraphModel] = []
            var redoStates: [GraphModel] = []
            for _ in 0..<Int.random(in: 4...10, using: &rng) {
                let before = model
                let op = Int.random(in: 0..<100, using: &rng)
                history.append("\(sequence):\(op)")
                let consistent = try context.performAndWait {
                    let tickers = try context.fetch(FetchRequest(entityName: "Ticker"), as: Ticker.self)
                    let sectors = try context.fetch(FetchRequest(entityName: "Sector"), as: Sector.self)
                    let tags = try context.fetch(FetchRequest(entityName: "Tag"), as: TickerTag.self)
                    // The context sees what the model holds, before each step.
                    let seen = Dictionary(tickers.map {
                        ($0.symbol, GraphModel.TickerRow(price: $0.price, sector: $0.sector?.name, tags: Set($0.tags.map(\.label))))
                    }, uniquingKeysWith: { first, _ in first })
                    guard seen == model.tickers, seen.count == tickers.count, Set(sectors.map(\.name)) == model.sectors else {
                        Issue.record("after \(history.suffix(12)): the context sees \(tickers) and \(sectors.map(\.name)), the model \(model)")
                        return false
                    }
                    switch op {
                    case 0..<14 where model.tickers.count < 16:  // insert a ticker (the graph stays small)
                        counter += 1
                        let t = try context.insert(Ticker.self)
                        t.symbol = "T\(counter)"
                        t.price = Double(counter)
                        let sector = sectors.isEmpty || Bool.random(using: &rng) ? nil : sectors.randomElement(using: &rng)
                        t.sector = sector
                        model.tickers[t.symbol] = .init(price: t.price, sector: sector?.name, tags: [])
                    case 14..<30 where !tickers.isEmpty:  // edit a price
                        let t = tickers.randomElement(using: &rng)!
                        t.price += Double(Int.random(in: 1...9, using: &rng))
                        model.tickers[t.symbol]!.price = t.price
                    case 30..<40 where !tickers.isEmpty:  // move to another sector (or none)
                        let t = tickers.randomElement(using: &rng)!
                        let choices: [Sector?] = [nil] + sectors.map { $0 }
                        let others = choices.filter { $0 !== t.sector }
                        guard let s = others.randomElement(using: &rng) else { break }  // no sector, none to leave
                        t.sector = s
                        model.tickers[t.symbol]!.sector = s?.name
                    case 40..<48 where !tickers.isEmpty:  // tag or untag
                        let t = tickers.randomElement(using: &rng)!
                        let tag = tags.randomElement(using: &rng)!
                        if t.tags.contains(tag) {
                            try t.remove(tag, fromKey: "tags")
                            model.tickers[t.symbol]!.tags.remove(tag.label)
                        } else {
                            try t.add(tag, toKey: "tags")
                            model.tickers[t.symbol]!.tags.insert(tag.label)
                        }
                    case 48..<54 where !tickers.isEmpty:  // delete a ticker
                        let t = tickers.randomElement(using: &rng)!
                        model.tickers[t.symbol] = nil
                        context.delete(t)
                    case 54..<57 where !sectors.isEmpty:  // delete a sector and, by cascade, its tickers
                        let s = sectors.randomElement(using: &rng)!
                        model.sectors.remove(s.name)
                        model.tickers = model.tickers.filter { $0.value.sector != s.name }
                        context.delete(s)
                    case 57..<60 where model.sectors.count < 4:  // a new sector
                        counter += 1
                        let s = try context.insert(Sector.self)
                        s.name = "S\(counter)"
                        model.sectors.insert(s.name)
                    case 60..<75:
                        try context.undo()
                    case 75..<85:
                        try context.redo()
                    case 85..<100:
                        try context.save()
                    default:
                        break
                    }
                    return true
                }
                guard consistent else { return }
                switch op {
                case 60..<75:
                    if let last = undoStates.popLast() { redoStates.append(model); model = last }
                case 75..<85:
                    if let next = redoStates.popLast() { undoStates.append(model); model = next }
                default:
                    if model != before { undoStates.append(before); redoStates = [] }
                }
                #expect(context.performAndWait { context.undoManager!.canUndo } == !undoStates.isEmpty,
                        "sequence \(sequence): canUndo")
            }
            try context.performAndWait { try context.save() }
            let stored = try Self.storedModel(reader)
            #expect(stored == model, "sequence \(sequence): the store's rows differ from the model")
            if stored != model { break }
        }
        if kind == .sqlite && SQLiteShell.isInstalled {
            #expect(try SQLiteShell.run(store.url, "PRAGMA integrity_check;").trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
        }
    }

    /// The rows as a fresh context reads them.
    private static func storedModel(_ reader: ObjectContext) throws -> GraphModel {
        try reader.performAndWait {
            reader.reset()
            var stored = GraphModel()
            for s in try reader.fetch(FetchRequest(entityName: "Sector"), as: Sector.self) { stored.sectors.insert(s.name) }
            for t in try reader.fetch(FetchRequest(entityName: "Ticker"), as: Ticker.self) {
                stored.tickers[t.symbol] = .init(price: t.price, sector: t.sector?.name, tags: Set(t.tags.map(\.label)))
            }
            return stored
        }
    }
}
