import Foundation
import GRDB
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Remote changes: commits by other connections reach the main context", .serialized)
struct RemoteChangeTests {
    /// One model for the writer and the reader, so typed classes (`Ticker`) resolve in both.
    /// (Serialized: typed inserts bind classes in the shared model under a Mutex that Thread
    /// Sanitizer cannot see on Linux; see scripts/tsan.supp.)
    static let model = TestModels.tickers()

    /// A store at `url` holding tickers `T0`… priced 0, 1, …, written by a stack that is gone.
    static func seed(_ url: URL, tickers count: Int) throws {
        var options = PersistentStack.Options()
        options.storeURL = url
        options.watchesRemoteChanges = false
        let writer = try PersistentStack(model: Self.model, options: options)
        let importer = writer.importerContext()
        try importer.performAndWait {
            for i in 0..<count {
                let t = try importer.insert(Ticker.self)
                t.symbol = "T\(i)"
                t.price = Double(i)
            }
            try importer.save()
        }
    }

    static func stack(_ url: URL) throws -> PersistentStack {
        try PersistentStack(model: Self.model, storeURL: url)
    }

    /// A seeded store in `directory`, a stack that writes it and a watching stack whose
    /// controller (by price) records what it reports.
    static func writerAndReader(in directory: TemporaryDirectory, tickers: Int) async throws
        -> (writer: PersistentStack, reader: PersistentStack, controller: FetchedResultsController, recorder: DiffRecorder) {
        let url = directory.file("store.sqlite")
        try seed(url, tickers: tickers)
        let writer = try stack(url)
        let reader = try stack(url)
        let (controller, recorder) = try await MainActor.run { try watch(reader) }
        return (writer, reader, controller, recorder)
    }

    /// Inserts and saves a ticker through `context` (on its queue).
    static func saveTicker(_ symbol: String, price: Double, in context: ObjectContext) throws {
        try context.performAndWait {
            let t = try context.insert(Ticker.self)
            t.symbol = symbol
            t.price = price
            try context.save()
        }
    }

    /// Saves through `importer`: `T0` priced 100 (to the end by price), `T2` deleted, `N` at 1.5.
    static func moveDeleteAndInsert(in importer: ObjectContext) throws {
        try importer.performAndWait {
            let all = try importer.fetch(FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")])) as! [Ticker]
            all[0].price = 100                       // T0 moves to the end
            importer.delete(all[2])                  // T2 goes
            let n = try importer.insert(Ticker.self)
            n.symbol = "N"
            n.price = 1.5
            try importer.save()
        }
    }

    /// Saves `prices` one by one as the price of the first ticker `importer` fetches.
    static func reprice(_ prices: [Double], in importer: ObjectContext) throws {
        for price in prices {
            try importer.performAndWait {
                let t = try importer.fetch(FetchRequest(entityName: "Ticker")).first as! Ticker
                t.price = price
                try importer.save()
            }
        }
    }

    /// A controller over every ticker by price, with a recorder that rebuilds its rows from the
    /// reported changes.
    @MainActor
    static func watch(_ stack: PersistentStack) throws -> (FetchedResultsController, DiffRecorder) {
        let controller = try FetchedResultsController(
            fetchRequest: FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("price"), SortKey("symbol")]),
            context: stack.mainContext)
        try controller.performFetch()
        let recorder = DiffRecorder(controller.snapshot)
        controller.delegate = recorder
        return (controller, recorder)
    }

    @MainActor
    static func symbols(_ controller: FetchedResultsController) -> [String] {
        controller.snapshot.items.flatMap { $0 }.map { (controller.context.object(with: $0) as! Ticker).symbol }
    }

    @Test("the watcher is on for SQLite stacks and off for in-memory stacks and when the option says so")
    func watcherOption() throws {
        let directory = TemporaryDirectory()
        #expect(try Self.stack(directory.file("a.sqlite")).watchesRemoteChanges)
        #expect(try !PersistentStack(model: Self.model, storeURL: directory.file("m"), storeType: .inMemory).watchesRemoteChanges)
        var options = PersistentStack.Options()
        options.storeURL = directory.file("b.sqlite")
        options.watchesRemoteChanges = false
        #expect(try !PersistentStack(model: Self.model, options: options).watchesRemoteChanges)
    }

    // How soon each shows (within a second, issue 34 item 1) is timed by `quarry-bench outside-write`;
    // here a write that is never shown fails after 30 s (a loaded CI machine took over a second).
    @Test("writes that bypass Quarry, each between an importer's saves in another stack, are each seen")
    func outsideWritesBetweenImporterSaves() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try Self.seed(url, tickers: 30)
        let writer = try Self.stack(url)
        let reader = try Self.stack(url)
        let (controller, _) = try await MainActor.run { try Self.watch(reader) }
        // Every row loaded, as on a browser's screen: a loaded object shows a new value only
        // when a merge or re-fetch refreshes it (a fault would read the store anew).
        let shown = await MainActor.run { () -> [String: Ticker] in
            var bySymbol: [String: Ticker] = [:]
            for id in controller.snapshot.items.flatMap({ $0 }) {
                let ticker = controller.context.object(with: id) as! Ticker
                _ = ticker.price
                bySymbol[ticker.symbol] = ticker
            }
            return bySymbol
        }
        // The importer saves without pause until the outside writes are done (issue 34, item 1:
        // each of its saves' history used to explain away the outside write committed before it).
        let stop = Mutex(false)
        let saves = Mutex(0)
        let importer = writer.importerContext()
        let importing = Thread {
            var price = 0.0
            while !stop.withLock({ $0 }) {
                price += 1
                do {
                    try Self.reprice([price], in: importer)
                    saves.withLock { $0 += 1 }
                } catch {
                    Issue.record("the importer's save failed: \(error)")
                    return
                }
            }
        }
        importing.start()
        defer { stop.withLock { $0 = true } }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let outside = try DatabaseQueue(path: url.path, configuration: configuration)
        for i in 1...20 {
            let symbol = "T\(i)"
            let price = 1_000.0 + Double(i)
            let ticker = try #require(shown[symbol])
            let seen = { @MainActor @Sendable () -> Bool in ticker.price == price }
            _ = try await remoteChanges(of: reader, deadline: .seconds(30), awaiting: "outside write \(i) (\(symbol) priced \(price)) to show",
                                        after: { try outside.write { try $0.execute(sql: "UPDATE Ticker SET price = ? WHERE symbol = ?", arguments: [price, symbol]) } },
                                        until: seen)
        }
        #expect(saves.withLock { $0 } > 20, "the importer saved between the outside writes")
    }

    @Test("a write that bypasses Quarry: the controller re-fetches and reports the rows that changed, as an external change")
    func externalWriteIsRefetched() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try Self.seed(url, tickers: 5)
        let stack = try Self.stack(url)
        let (controller, recorder) = try await MainActor.run { try Self.watch(stack) }
        // T1 registered and loaded: it must show the new price without being faulted again.
        let loaded = await MainActor.run { () -> Ticker in
            let t = stack.mainContext.object(with: controller.snapshot.items[0][1]) as! Ticker
            _ = t.price
            return t
        }
        let change = try await nextRemoteChange(of: stack) {
            let database = try DatabaseQueue(path: url.path)
            try database.write { db in
                try db.execute(sql: "UPDATE Ticker SET price = 10 WHERE symbol = 'T1'")
                try db.execute(sql: "DELETE FROM Ticker WHERE symbol = 'T3'")
            }
        }
        #expect(change.isExternal && change.tokens == nil && change.storeURL == url)
        await MainActor.run {
            #expect(Self.symbols(controller) == ["T0", "T2", "T4", "T1"])
            #expect(recorder.items == controller.snapshot.items, "the reported changes rebuild the new rows: \(recorder.log)")
            #expect(recorder.events == 1 && recorder.resets == 0 && recorder.violations.isEmpty)
            #expect(recorder.log.contains { $0.hasPrefix("delete") } && recorder.log.contains { $0.hasPrefix("move") })
            #expect(loaded.price == 10, "the registered object was refreshed")
        }
    }

    @Test("re-fetching reports nothing for rows whose sort keys did not change")
    func refetchWithoutChanges() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try Self.seed(url, tickers: 4)
        var options = PersistentStack.Options()
        options.storeURL = url
        options.watchesRemoteChanges = false
        let stack = try PersistentStack(model: Self.model, options: options)
        try await MainActor.run {
            let (controller, recorder) = try Self.watch(stack)
            try controller.refetchReportingChanges()
            #expect(recorder.events == 0 && recorder.resets == 0)
        }
    }

    @Test("another stack's save is merged, not re-fetched: inserts, moves and deletes reported, nothing unregistered loaded")
    func otherStackSaveIsMerged() async throws {
        let directory = TemporaryDirectory()
        let (writer, reader, controller, recorder) = try await Self.writerAndReader(in: directory, tickers: 4)
        let before = await MainActor.run { reader.mainContext.registeredObjectCount }
        let importer = writer.importerContext()
        let token = try (writer.writerCoordinator.store as! SQLiteStore).currentHistoryToken()
        let change = try await nextRemoteChange(of: reader) {
            try Self.moveDeleteAndInsert(in: importer)
        }
        #expect(!change.isExternal)
        #expect(change.tokens?.lowerBound ?? HistoryToken(0) > token ?? HistoryToken(0))
        await MainActor.run {
            #expect(reader.mainContext.registeredObjectCount == before, "no unregistered object was loaded to decide")
            #expect(recorder.items == controller.snapshot.items, "\(recorder.log)")
            #expect(recorder.events == 1 && recorder.resets == 0 && recorder.violations.isEmpty)
            #expect(Self.symbols(controller) == ["T1", "N", "T3", "T0"])
        }
    }

    @Test("a stack's own saves are merged once, in process: the watcher skips their history")
    func ownSavesAreSkipped() async throws {
        let directory = TemporaryDirectory()
        let (other, stack, controller, recorder) = try await Self.writerAndReader(in: directory, tickers: 2)
        let own = stack.importerContext()
        _ = try await nextMerge(of: stack) { try Self.saveTicker("OWN", price: 0.5, in: own) }
        let ownToken = try (stack.writerCoordinator.store as! SQLiteStore).currentHistoryToken()!
        let seen = Mutex<[RemoteChange]>([])
        let observation = stack.addRemoteChangeObserver { change in seen.withLock { $0.append(change) } }
        defer { observation.cancel() }
        let importer = other.importerContext()
        let change = try await nextRemoteChange(of: stack) { try Self.saveTicker("OTHER", price: 7, in: importer) }
        #expect(change.tokens.map { $0.lowerBound > ownToken } == true, "the own transaction is not among the merged ones")
        await MainActor.run {
            #expect(seen.withLock { $0.count } == 1)
            #expect(recorder.events == 2, "one event for the own save, one for the other stack's: \(recorder.log)")
            #expect(recorder.items == controller.snapshot.items)
            #expect(Self.symbols(controller) == ["T0", "OWN", "T1", "OTHER"])
        }
    }

    @Test("history pruned behind a reader reads as external, and reading resumes after the newest transaction")
    func prunedHistoryIsExternal() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("store.sqlite")
        try Self.seed(url, tickers: 1)
        let store = try SQLiteStore(url: url, model: Self.model)
        let reader = try RemoteHistoryReader(store: store, origin: UUID())
        let writer = try Self.stack(url)
        let importer = writer.importerContext()
        try Self.reprice([1.0, 2.0], in: importer)
        let newest = try store.currentHistoryToken()!
        try store.deleteHistory(before: newest)
        guard case .external = try reader.nextCommit() else { Issue.record("expected a re-fetch"); return }
        #expect(reader.lastToken == newest)
    }
}
