import Foundation
import GRDB
import Quarry
import QuarryDemo
import QuarryTestSupport
import Testing

/// The live importer: unique symbols across importers, a busy store, errors that stop it.
struct DemoImporterTests {
    let directory = TemporaryDirectory()
    var storeURL: URL { directory.file("demo.sqlite") }

    func stack(busyTimeout: Double = 5, readOnly: Bool = false) throws -> PersistentStack {
        var options = PersistentStack.Options()
        options.storeURL = storeURL
        options.busyTimeout = busyTimeout
        options.readOnly = readOnly
        return try PersistentStack(model: DemoModel.make(), options: options)
    }

    /// An importer whose events arrive on a stream.
    func importer(_ stack: PersistentStack, rate: Int = 2_000, tick: Double = 0.01)
        -> (DemoImporter, AsyncStream<DemoImporter.Event>) {
        let (events, continuation) = AsyncStream.makeStream(of: DemoImporter.Event.self)
        let importer = DemoImporter(stack: stack, rate: rate, tick: tick) { event in
            continuation.yield(event)
            if case .stopped = event { continuation.finish() }
        }
        return (importer, events)
    }

    /// Waits until `importer` has made `count` saves, or stopped; returns the saves seen.
    func saves(_ count: Int, from events: AsyncStream<DemoImporter.Event>) async throws -> Int {
        try await withDeadline(defaultEventDeadline, awaiting: "\(count) saves of the demo importer") {
            var seen = 0
            for await event in events {
                if case .saved = event { seen += 1 }
                if case .stopped = event { break }
                if seen >= count { break }
            }
            return seen
        }
    }

    /// Every ticker's symbol in the store.
    func symbols() throws -> [String] {
        let reader = try self.stack()
        let context = reader.importerContext()
        return try context.performAndWait {
            try context.objects(ofEntity: "Ticker").map { ticker in
                guard case .string(let s) = try ticker.value(forKey: "symbol") else { return "" }
                return s
            }
        }
    }

    @Test func twoImportersOnOneStoreNeverStoreOneSymbolTwice() async throws {
        let first = try stack()
        try DemoSeeder(coordinator: first.writerCoordinator).seed(rows: 50)
        let second = try stack()  // its own connections, as another process has
        let (a, aEvents) = importer(first)
        let (b, bEvents) = importer(second)
        a.start()
        b.start()
        async let aSaves = saves(25, from: aEvents)
        async let bSaves = saves(25, from: bEvents)
        let (madeA, madeB) = try await (aSaves, bSaves)
        a.stop()
        b.stop()
        #expect(a.error == nil)
        #expect(b.error == nil)
        #expect(madeA == 25 && madeB == 25)
        let symbols = try symbols()
        #expect(Set(symbols).count == symbols.count)
        #expect(symbols.count >= 50 + 50 * a.insertsPerSave)
        // The importers' totals account for every ticker stored, each save inserting its share.
        #expect(symbols.count == 50 + a.totals.inserted + b.totals.inserted)
        #expect(a.totals.inserted == a.totals.saves * a.insertsPerSave && a.totals.saves >= 25)
        #expect(b.totals.inserted == b.totals.saves * b.insertsPerSave && b.totals.saves >= 25)
    }

    @Test func aBusyStorePausesTheImporterWhichResumesWhenTheLockIsReleased() async throws {
        let stack = try stack(busyTimeout: 0.05)
        try DemoSeeder(coordinator: stack.writerCoordinator).seed(rows: 20)
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true  // the lock outlives one database access
        let other = try DatabaseQueue(path: storeURL.path, configuration: configuration)
        try other.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
        let (importer, events) = importer(stack)
        importer.start()
        let (pausedStatus, savedAfterRelease) = try await withDeadline(defaultEventDeadline, awaiting: "the importer to pause on the busy store and save after its release") {
            var pausedStatus: String?
            var savedAfterRelease = false
            for await event in events {
                switch event {
                case .paused:
                    guard pausedStatus == nil else { continue }
                    pausedStatus = importer.statusText
                    try other.inDatabase { try $0.execute(sql: "COMMIT") }
                case .saved:
                    savedAfterRelease = pausedStatus != nil
                case .stopped, .refusedForCollision:
                    break
                }
                if savedAfterRelease { break }
            }
            return (pausedStatus, savedAfterRelease)
        }
        importer.stop()
        #expect(pausedStatus == "import paused: store busy")
        #expect(savedAfterRelease)
        #expect(importer.error == nil)
        #expect(importer.statusText.hasPrefix("import ") && !importer.statusText.contains("paused"))
    }

    @Test func anErrorThatStopsTheImporterIsReported() async throws {
        try DemoSeeder(coordinator: stack().writerCoordinator).seed(rows: 20)
        let (importer, events) = importer(try stack(readOnly: true))
        importer.start()
        let stoppedWith = try await withDeadline(defaultEventDeadline, awaiting: "the importer to stop with its error") { () -> String? in
            var stoppedWith: String?
            for await event in events {
                if case .stopped(let error) = event { stoppedWith = error }
            }
            return stoppedWith
        }
        let error = try #require(stoppedWith)
        #expect(error.contains("read-only"))
        #expect(importer.statusText == "import stopped: \(error)")
    }

    @Test func everyImporterSaveTagsItsTickersWithItsNumber() async throws {
        let stack = try stack()
        try DemoSeeder(coordinator: stack.writerCoordinator).seed(rows: 10)
        let (importer, events) = importer(stack)
        importer.start()
        let made = try await saves(5, from: events)
        importer.stop()
        #expect(made == 5)
        let context = stack.importerContext()
        let batches = try context.performAndWait {
            try context.objects(ofEntity: "Ticker").compactMap { ticker -> Int64? in
                guard case .integer(let n) = try ticker.value(forKey: "saveNumber"), n > 0 else { return nil }
                return n
            }
        }
        let counts = Dictionary(grouping: batches, by: { $0 }).mapValues(\.count)
        #expect(counts.keys.sorted() == Array(1...Int64(counts.count)))
        #expect(counts.values.allSatisfy { $0 == importer.insertsPerSave })
    }
}
