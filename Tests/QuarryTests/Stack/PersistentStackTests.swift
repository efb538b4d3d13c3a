import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Persistent stack: contexts, policies and the smart merge")
struct PersistentStackTests {
    func makeStack(_ directory: TemporaryDirectory, configure: (inout PersistentStack.Options) -> Void = { _ in }) throws -> PersistentStack {
        var options = PersistentStack.Options()
        options.storeURL = directory.file("stack.sqlite")
        configure(&options)
        return try PersistentStack(model: TestModels.tickers(), options: options)
    }

    @Test("the four contexts have their documented queues, parents and merge policies")
    func contexts() throws {
        let directory = TemporaryDirectory()
        let stack = try makeStack(directory)
        #expect(stack.mainContext.concurrencyType == .mainQueue)
        #expect(stack.mainContext.mergePolicy == .mergeByPropertyStoreTrump)
        let importer = stack.importerContext()
        #expect(importer.concurrencyType == .privateQueue)
        #expect(importer.coordinator === stack.writerCoordinator)
        #expect(importer.mergePolicy == .mergeByPropertyObjectTrump)
        let temporary = stack.temporaryContext()
        #expect(temporary.parent === stack.mainContext && temporary.mergePolicy == .rollback)
        let creator = stack.creatorContext()
        #expect(creator.parent === stack.mainContext && creator.mergePolicy == .overwrite)
        #expect(stack.storeURL == directory.file("stack.sqlite"))
    }

    @Test("an importer save is merged into main: registered objects refresh, nothing else loads")
    func smartMerge() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeStack(directory)
        let importer = stack.importerContext()
        let ids = try importer.performAndWait {
            let tickers = try (0..<50).map { i -> Ticker in let t = try importer.insert(Ticker.self); t.symbol = "T\(i)"; return t }
            try importer.save()
            return tickers.map(\.objectID)
        }
        let main = stack.mainContext
        let shown = await MainActor.run { () -> Ticker in
            let t = main.object(with: ids[0]) as! Ticker
            _ = t.symbol
            return t
        }
        let before = await MainActor.run { main.registeredObjectCount }
        let merged = try await nextMerge(of: stack) {
            try importer.performAndWait {
                for id in ids { (importer.object(with: id) as! Ticker).price = 42 }
                let n = try importer.insert(Ticker.self); n.symbol = "NEW"
                try importer.save()
            }
        }
        #expect(merged.updated.count == 50 && merged.inserted.count == 1)
        await MainActor.run {
            #expect(shown.price == 42, "the registered object refreshed")
            #expect(main.registeredObjectCount == before, "no unregistered object was loaded")
        }
        #expect(stack.mergeStatistics.count == 2, "the set-up save and this one")
    }

    @Test("each save is merged once, and only saves through the writer coordinator")
    func mergedOnce() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeStack(directory)
        let counted = Mutex(0)
        let token = stack.addMergeObserver { _ in counted.withLock { $0 += 1 } }
        defer { token.cancel() }
        // A main-context save and a child's save do not trigger a merge.
        try await MainActor.run {
            let t = try stack.mainContext.insert(Ticker.self); t.symbol = "MAIN"
            try stack.mainContext.save()
            let child = stack.creatorContext()
            let c = try child.insert(Ticker.self); c.symbol = "CHILD"
            try child.save()
        }
        let importer = stack.importerContext()
        _ = try await nextMerge(of: stack) {
            try importer.performAndWait { let t = try importer.insert(Ticker.self); t.symbol = "IMP"; try importer.save() }
        }
        await MainActor.run {}
        #expect(counted.withLock { $0 } == 1)
    }

    @Test("the merge is queued at the commit, before the did-save is posted, and never for a replaced writer")
    func mergeQueuedAtCommit() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeStack(directory)
        let importer = stack.importerContext()
        // The did-save observer runs on the importer's queue, after the merge was queued on the
        // main queue: a block it queues there runs after the merge.
        await MainActor.run {}
        let before = stack.mergeStatistics.count
        let mergedBeforeDidSave = Observed()
        let token = importer.addDidSaveObserver { _ in
            DispatchQueue.main.async { mergedBeforeDidSave.set(stack.mergeStatistics.count == before + 1) }
        }
        _ = try await nextMerge(of: stack) {
            try importer.performAndWait { let t = try importer.insert(Ticker.self); t.symbol = "A"; try importer.save() }
        }
        await MainActor.run {}
        token.cancel()
        #expect(mergedBeforeDidSave.value == true)

        // A context on a writer coordinator that destroyAndSetUp() replaced: not merged.
        let old = ObjectContext(concurrencyType: .privateQueue, coordinator: stack.writerCoordinator, name: "old")
        try stack.destroyAndSetUp()
        let counted = Mutex(0)
        let observer = stack.addMergeObserver { _ in counted.withLock { $0 += 1 } }
        defer { observer.cancel() }
        try old.performAndWait { let t = try old.insert(Ticker.self); t.symbol = "OLD"; try old.save() }
        _ = try await nextMerge(of: stack) {
            let current = stack.importerContext()
            try current.performAndWait { let t = try current.insert(Ticker.self); t.symbol = "NEW"; try current.save() }
        }
        await MainActor.run {}
        #expect(counted.withLock { $0 } == 1, "only the current writer's save was merged")
    }

    @Test("a temporary context never reaches main or disk; its save is refused")
    func temporary() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeStack(directory)
        try await MainActor.run {
            let temp = stack.temporaryContext()
            let t = try temp.insert(Ticker.self); t.symbol = "TMP"
            #expect(throws: QuarryError.self) { try temp.save() }
            #expect(!stack.mainContext.hasChanges)
            #expect(try stack.mainContext.count(ofEntity: "Ticker") == 0)
        }
    }

    @Test("a creator context's save goes to main and on to disk")
    func creator() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeStack(directory)
        try await MainActor.run {
            let creator = stack.creatorContext()
            let t = try creator.insert(Ticker.self); t.symbol = "NEW"
            try creator.save()
            #expect(!stack.mainContext.hasChanges)
        }
        let reader = ObjectContext(concurrencyType: .privateQueue, coordinator: stack.writerCoordinator)
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Ticker") } == 1)
    }

    @Test("a read-only main context reports saves as ignored and writes nothing")
    func readOnlyMain() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeStack(directory) { $0.isMainContextReadOnly = true }
        try await MainActor.run {
            let t = try stack.mainContext.insert(Ticker.self); t.symbol = "RO"
            #expect(try stack.mainContext.save() == .ignoredReadOnly)
            #expect(stack.mainContext.hasChanges)
        }
        let reader = ObjectContext(concurrencyType: .privateQueue, coordinator: stack.writerCoordinator)
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Ticker") } == 0)
    }

    @Test("with merging off, importer saves do not reach the main context")
    func mergeOff() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeStack(directory) { $0.mergesIncomingSavedObjects = false }
        let importer = stack.importerContext()
        let id = try importer.performAndWait { let t = try importer.insert(Ticker.self); t.symbol = "A"; try importer.save(); return t.objectID }
        let shown = await MainActor.run { () -> Ticker in let t = stack.mainContext.object(with: id) as! Ticker; _ = t.symbol; return t }
        try importer.performAndWait { (importer.object(with: id) as! Ticker).price = 7; try importer.save() }
        // Turning merging back on shows the next save; the earlier one stayed unmerged.
        stack.mergesIncomingSavedObjects = true
        _ = try await nextMerge(of: stack) {
            try importer.performAndWait { (importer.object(with: id) as! Ticker).volume = 9; try importer.save() }
        }
        await MainActor.run {
            #expect(shown.volume == 9)
            #expect(stack.mergeStatistics.count == 1)
        }
    }

    @Test("set-up with a completion callback and with async")
    func setUpForms() async throws {
        let directory = TemporaryDirectory()
        var options = PersistentStack.Options()
        options.storeURL = directory.file("cb.sqlite")
        let fromCallback = try await withDeadline(defaultEventDeadline, awaiting: "setUp's completion") { [options] in
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<PersistentStack, Error>) in
                PersistentStack.setUp(model: TestModels.tickers(), options: options) { result in c.resume(with: result) }
            }
        }
        #expect(fromCallback.storeURL == directory.file("cb.sqlite"))
        options.storeURL = directory.file("async.sqlite")
        let made = try await PersistentStack.make(model: TestModels.tickers(), options: options)
        #expect(made.storeURL == directory.file("async.sqlite"))
        var bad = options
        bad.storeURL = directory.file("notsqlite")
        try Data("not a database at all, definitely not".utf8).write(to: directory.file("notsqlite"))
        await #expect(throws: StoreError.self) { try await PersistentStack.make(model: TestModels.tickers(), options: bad) }
    }

    @Test("a seed store is copied on first run; destroyAndSetUp starts over from it")
    func seedAndDestroy() async throws {
        let directory = TemporaryDirectory()
        let seed = directory.file("seed.sqlite")
        do {
            let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: seed, model: TestModels.tickers())))
            try context.performAndWait { let t = try context.insert(Ticker.self); t.symbol = "SEED"; try context.save() }
        }
        let stack = try makeStack(directory) { $0.seedStoreURL = seed }
        let importer = stack.importerContext()
        #expect(try importer.performAndWait { try importer.count(ofEntity: "Ticker") } == 1)
        try importer.performAndWait { let t = try importer.insert(Ticker.self); t.symbol = "MINE"; try importer.save() }
        try stack.destroyAndSetUp()
        let fresh = stack.importerContext()
        #expect(try fresh.performAndWait { try fresh.objects(of: Ticker.self).map(\.symbol) } == ["SEED"])
    }

    @Test("the default store location follows XDG")
    func xdg() {
        let url = PersistentStack.defaultStoreURL(name: "demo")
        #expect(url.path.hasSuffix("quarry/demo.sqlite"))
    }
}

/// A value set on one queue and read on another (the lock orders the set before the read).
private final class Observed: Sendable {
    private let stored = Mutex<Bool?>(nil)
    var value: Bool? { stored.withLock { $0 } }
    func set(_ value: Bool) { stored.withLock { $0 = value } }
}
