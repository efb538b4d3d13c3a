import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

/// Every test touching the process-wide `PersistentStack.shared` is here, run one at a time,
/// and leaves it `nil`.
@Suite("Persistent stack: the shared stack", .serialized)
struct SharedStackTests {
    static func inMemory() -> PersistentStack.Options {
        var options = PersistentStack.Options()
        options.storeType = .inMemory
        return options
    }

    @Test("setUpShared makes the stack and sets shared; a failed set-up leaves shared as it was")
    func setUpSharedSetsShared() throws {
        defer { PersistentStack.shared = nil }
        PersistentStack.shared = nil
        let stack = try PersistentStack.setUpShared(model: TestModels.tickers(), options: Self.inMemory())
        #expect(PersistentStack.shared === stack)
        let directory = TemporaryDirectory()
        try Data("not a database at all, definitely not".utf8).write(to: directory.file("notsqlite"))
        var bad = PersistentStack.Options()
        bad.storeURL = directory.file("notsqlite")
        #expect(throws: StoreError.self) { try PersistentStack.setUpShared(model: TestModels.tickers(), options: bad) }
        #expect(PersistentStack.shared === stack)
    }

    @Test("the completion forms of setUpShared set shared before calling back on the main queue")
    func setUpSharedCompletion() async throws {
        defer { PersistentStack.shared = nil }
        PersistentStack.shared = nil
        let folder = ModelFolderFixture()
        try folder.json("Shop", entity: "Item")
        var options = Self.inMemory()
        let sharedWhenCalled = SharedSeen()
        let byModel = try await SetUpCompletion.awaiting("setUpShared(model:)'s completion") { [options] done in
            PersistentStack.setUpShared(model: TestModels.tickers(), options: options) { result in
                sharedWhenCalled.record(PersistentStack.shared); done(result)
            }
        }
        #expect(byModel.onMainQueue && byModel.calls == 1)
        #expect(try sharedWhenCalled.last === byModel.stack())
        options.storeURL = folder.url.appendingPathComponent("shop.sqlite")
        options.storeType = .sqlite
        let byName = try await SetUpCompletion.awaiting("setUpShared(modelNamed:in:)'s completion") { [options] done in
            PersistentStack.setUpShared(modelNamed: "Shop", in: folder.url, options: options) { result in
                sharedWhenCalled.record(PersistentStack.shared); done(result)
            }
        }
        #expect(byName.onMainQueue && byName.calls == 1)
        #expect(try sharedWhenCalled.last === byName.stack())
        #expect(try byName.stack().model.entity(named: "Item") != nil)
        options.storeURL = folder.url.appendingPathComponent("all.sqlite")
        let byFolder = try await SetUpCompletion.awaiting("setUpShared(modelsIn:)'s completion") { [options] done in
            PersistentStack.setUpShared(modelsIn: folder.url, options: options) { result in
                sharedWhenCalled.record(PersistentStack.shared); done(result)
            }
        }
        #expect(byFolder.onMainQueue && byFolder.calls == 1)
        #expect(try sharedWhenCalled.last === byFolder.stack())
        // A failure calls back with the error and leaves shared as it was.
        let failed = try await SetUpCompletion.awaiting("a failed setUpShared's completion") { [options] done in
            PersistentStack.setUpShared(modelNamed: "Missing", in: folder.url, options: options, completion: done)
        }
        #expect(failed.onMainQueue && failed.calls == 1)
        #expect(throws: ModelError.self) { try failed.stack() }
        #expect(try PersistentStack.shared === byFolder.stack())
    }

    @Test("shared is safe to set and read from many tasks at once; it ends as one of the stacks set")
    func concurrentSetAndGet() async throws {
        defer { PersistentStack.shared = nil }
        PersistentStack.shared = nil
        let stacks = try (0..<10).map { _ in try PersistentStack(model: TestModels.tickers(), options: Self.inMemory()) }
        let ids = Set(stacks.map(ObjectIdentifier.init))
        let readsSeenOnlySetStacks = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<100 {
                group.addTask {
                    if i.isMultiple(of: 2) {
                        PersistentStack.shared = stacks[i % stacks.count]
                        return true
                    }
                    return PersistentStack.shared.map { ids.contains(ObjectIdentifier($0)) } ?? true
                }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(readsSeenOnlySetStacks)
        let last = try #require(PersistentStack.shared)
        #expect(ids.contains(ObjectIdentifier(last)))
    }
}

/// The value of `PersistentStack.shared` a completion saw (recorded on the main queue, read after).
private final class SharedSeen: Sendable {
    private let seen = Mutex<PersistentStack?>(nil)
    var last: PersistentStack? { seen.withLock { $0 } }
    func record(_ stack: PersistentStack?) { seen.withLock { $0 = stack } }
}
