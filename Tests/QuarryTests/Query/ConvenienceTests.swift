import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Convenience API: filter, create, get, getOrCreate")
struct ConvenienceTests {
    @Test("synchronous forms", arguments: StoreKind.allCases)
    func synchronous(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        try context.performAndWait {
            let a = try Ticker.create(["symbol": .string("A"), "price": .double(1)], in: context)
            try Ticker.create(["symbol": .string("B"), "price": .double(2)], in: context)
            #expect(a is Ticker)
            #expect(try Ticker.filter(["symbol": ["A", "B"]], in: context, sortedBy: [SortKey("symbol", ascending: false)])
                .map { ($0 as! Ticker).symbol } == ["B", "A"])
            #expect(try Ticker.get(["symbol": "A"], in: context) === a)
            #expect(try Ticker.get(["symbol": "Z"], in: context) == nil)
            #expect(try Ticker.getOrCreate(["symbol": .string("A")], in: context) === a)
            let c = try Ticker.getOrCreate(["symbol": .string("C")], in: context)
            #expect((c as! Ticker).symbol == "C")
            let objects = try context.objects(inEntity: "Ticker", predicate: try ObjectPredicate(format: "price > 1"),
                                              sortedBy: [SortKey("symbol")]) { $0.fetchLimit = 1 }
            #expect(objects.map { ($0 as! Ticker).symbol } == ["B"])
        }
    }

    // MARK: Asynchronous forms (issue 35, item 5)

    @Test("create: the completion runs on the main queue after main merged the insert",
          arguments: ConvenienceMainSetup.allCases)
    func createCompletesAfterTheMerge(setup: ConvenienceMainSetup) async throws {
        let f = try ConvenienceFixture(setup)
        let main = f.main
        let (result, onMain, mergedBefore) = try await awaitCallback("create's completion") { done in
            Ticker.create(["symbol": .string("ASYNC"), "price": .double(5)], mainContext: main) { result in
                done((result, main.isOnQueue, f.mergedInserts.withLock { $0 }))
            }
        }
        let created = try result.get()
        #expect(onMain)
        #expect(!created.objectID.isTemporary, "saved to the store")
        #expect(mergedBefore.contains(created.objectID), "main announced the merged insert before the completion ran")
        #expect(f.commits.withLock { $0.map(\.inserted) } == [[created.objectID]])
        let (context, symbol) = try await main.perform { (created.managedObjectContext, (created as! Ticker).symbol) }
        #expect(context === main)
        #expect(symbol == "ASYNC")
    }

    @Test("getOrCreate, found: no save, and the completion gets main's registered instance on the main queue")
    func getOrCreateFoundSavesNothing() async throws {
        let f = try ConvenienceFixture(.coordinator(.sqlite))
        let main = f.main
        try f.seed([["symbol": .string("HELD"), "price": .double(1)]])
        let held = try await main.perform { try Ticker.get(["symbol": "HELD"], in: main)! }
        let (result, onMain) = try await awaitCallback("getOrCreate's completion") { done in
            Ticker.getOrCreate(["symbol": .string("HELD")], mainContext: main) { done(($0, main.isOnQueue)) }
        }
        #expect(onMain)
        #expect(try result.get() === held)
        #expect(f.commits.withLock { $0 }.isEmpty, "nothing was saved")
        #expect(f.mergedInserts.withLock { $0 }.isEmpty, "nothing was merged")
    }

    @Test("getOrCreate, not found: saved, and the completion runs on the main queue after main merged the insert")
    func getOrCreateCreatedCompletesAfterTheMerge() async throws {
        let f = try ConvenienceFixture(.coordinator(.sqlite))
        let main = f.main
        try f.seed([["symbol": .string("OTHER")]])
        let (result, onMain, mergedBefore) = try await awaitCallback("getOrCreate's completion") { done in
            Ticker.getOrCreate(["symbol": .string("NEW"), "price": .double(3)], mainContext: main) { result in
                done((result, main.isOnQueue, f.mergedInserts.withLock { $0 }))
            }
        }
        let created = try result.get()
        #expect(onMain)
        #expect(!created.objectID.isTemporary, "saved to the store")
        #expect(mergedBefore.contains(created.objectID), "main announced the merged insert before the completion ran")
        #expect(f.commits.withLock { $0.map(\.inserted) } == [[created.objectID]])
        let (context, symbol, price) = try await main.perform {
            (created.managedObjectContext, (created as! Ticker).symbol, (created as! Ticker).price)
        }
        #expect(context === main)
        #expect(symbol == "NEW")
        #expect(price == 3)
    }

    @Test("get: the completion gets main's instance (or nil) on the main queue, and saves nothing")
    func getCompletesOnMain() async throws {
        let f = try ConvenienceFixture(.coordinator(.memory))
        let main = f.main
        try f.seed([["symbol": .string("A"), "price": .double(1)], ["symbol": .string("B"), "price": .double(2)]])
        let a = try await main.perform { try Ticker.get(["symbol": "A"], in: main)! }
        let (found, foundOnMain) = try await awaitCallback("get's completion") { done in
            Ticker.get(["symbol": "A"], mainContext: main) { done(($0, main.isOnQueue)) }
        }
        #expect(foundOnMain)
        #expect(try found.get() === a)
        let (missing, missingOnMain) = try await awaitCallback("get's completion for a missing symbol") { done in
            Ticker.get(["symbol": "Z"], mainContext: main) { done(($0, main.isOnQueue)) }
        }
        #expect(missingOnMain)
        #expect(try missing.get() == nil)
        #expect(f.commits.withLock { $0 }.isEmpty)
    }

    @Test("filter: the completion gets main's instances on the main queue, and saves nothing")
    func filterCompletesOnMain() async throws {
        let f = try ConvenienceFixture(.coordinator(.memory))
        let main = f.main
        try f.seed([["symbol": .string("A")], ["symbol": .string("B")], ["symbol": .string("C")]])
        let a = try await main.perform { try Ticker.get(["symbol": "A"], in: main)! }
        let (result, onMain) = try await awaitCallback("filter's completion") { done in
            Ticker.filter(["symbol": ["A", "B"]], mainContext: main) { done(($0, main.isOnQueue)) }
        }
        #expect(onMain)
        let found = try result.get()
        #expect(found.count == 2)
        #expect(found.contains { $0 === a }, "the instance main already holds")
        let (inMain, symbols) = try await main.perform {
            (found.allSatisfy { $0.managedObjectContext === main }, Set(found.map { ($0 as! Ticker).symbol }))
        }
        #expect(inMain)
        #expect(symbols == ["A", "B"])
        #expect(f.commits.withLock { $0 }.isEmpty)
    }

    // MARK: perform(outOfOwnQueue:afterSaveOnMain:completion:) (issue 35, item 6)

    @Test("afterSave gets the save's inserted, updated and deleted IDs on the main queue, after main merged them",
          arguments: ConvenienceMainSetup.allCases)
    func afterSaveGetsTheSaveAfterTheMerge(setup: ConvenienceMainSetup) async throws {
        let f = try ConvenienceFixture(setup)
        let main = f.main
        let seeded = try f.seed([["symbol": .string("U"), "price": .double(1)], ["symbol": .string("D")]])
        let (updatedID, deletedID) = (seeded[0], seeded[1])
        // Registered in main with their values loaded: only a merge changes what they show.
        let (u, d, loadedPrice) = try await main.perform {
            let u = try main.existingObject(with: updatedID, as: Ticker.self)
            return (u, try main.existingObject(with: deletedID, as: Ticker.self), u.price)
        }
        #expect(loadedPrice == 1)
        let afterSaves = ConvenienceRecord<[AfterSaveCall]>([])
        let (result, afterSavesBefore, completedOnMain) = try await awaitCallback("the completion") { done in
            main.perform(outOfOwnQueue: { context in
                let inserted = try Ticker.create(["symbol": .string("N")], in: context)
                try context.existingObject(with: updatedID, as: Ticker.self).price = 2
                context.delete(try context.existingObject(with: deletedID))
                try context.save()
                return inserted.objectID
            }, afterSaveOnMain: { event in
                let u = main.registeredObject(for: updatedID) as? Ticker
                afterSaves.withLock {
                    $0.append(AfterSaveCall(changes: event.changes, onMain: main.isOnQueue, updatedPrice: u?.price,
                                            deletedStillRegistered: main.registeredObject(for: deletedID) != nil,
                                            mergedInserts: f.mergedInserts.withLock { $0 }, mergedUpdates: []))
                }
            }, completion: { result in
                done((result, afterSaves.withLock { $0.count }, main.isOnQueue))
            })
        }
        let insertedID = try result.get()
        #expect(completedOnMain)
        #expect(afterSavesBefore == 1, "afterSave ran once, before the completion")
        let calls = afterSaves.withLock { $0 }
        try #require(calls.count == 1)
        let call = calls[0]
        #expect(call.onMain)
        #expect(call.changes.inserted == [insertedID])
        #expect(call.changes.updated == [updatedID])
        #expect(call.changes.deleted == [deletedID])
        #expect(call.updatedPrice == 2, "main's registered object shows the saved value without a refetch")
        #expect(!call.deletedStillRegistered, "main forgot the deleted object")
        #expect(call.mergedInserts.contains(insertedID), "main announced the merged insert")
        let (price, deleted) = try await main.perform { (u.price, d.isDeleted) }
        #expect(price == 2)
        #expect(deleted)
    }

    @Test("afterSave runs once per save, in order, each after its merge, before the completion (also when work then throws)")
    func afterSaveOncePerSave() async throws {
        let f = try ConvenienceFixture(.coordinator(.sqlite))
        let main = f.main
        let afterSaves = ConvenienceRecord<[AfterSaveCall]>([])
        let (result, afterSavesBefore, completedOnMain) = try await awaitCallback("the completion") { done in
            main.perform(outOfOwnQueue: { context -> Int in
                let object = try Ticker.create(["symbol": .string("TWICE"), "price": .double(1)], in: context) as! Ticker
                try context.save()
                object.price = 2
                try context.save()
                throw QuarryError.refused("after two saves")
            }, afterSaveOnMain: { event in
                afterSaves.withLock {
                    $0.append(AfterSaveCall(changes: event.changes, onMain: main.isOnQueue, updatedPrice: nil,
                                            deletedStillRegistered: false, mergedInserts: f.mergedInserts.withLock { $0 },
                                            mergedUpdates: f.mergedUpdates.withLock { $0 }))
                }
            }, completion: { result in
                done((result, afterSaves.withLock { $0.count }, main.isOnQueue))
            })
        }
        #expect(throws: QuarryError.self) { try result.get() }
        #expect(completedOnMain)
        #expect(afterSavesBefore == 2, "both saves were reported before the completion")
        let calls = afterSaves.withLock { $0 }
        try #require(calls.count == 2)
        let id = try #require(calls[0].changes.inserted.first)
        #expect(calls.allSatisfy { $0.onMain })
        #expect(calls[0].changes.inserted == [id] && calls[0].changes.updated.isEmpty)
        #expect(calls[1].changes.updated == [id] && calls[1].changes.inserted.isEmpty)
        // What main's merges had announced when each afterSave ran: that save's IDs, not the next one's.
        #expect(calls[0].mergedInserts == [id] && calls[0].mergedUpdates.isEmpty, "the insert was merged before its afterSave")
        #expect(calls[1].mergedInserts == [id] && calls[1].mergedUpdates == [id], "the update was merged before its afterSave")
        #expect(f.commits.withLock { $0.count } == 2)
    }

    @Test("a block that saves nothing calls no afterSave; the completion still runs on the main queue")
    func noSaveNoAfterSaveCall() async throws {
        let f = try ConvenienceFixture(.coordinator(.sqlite))
        let main = f.main
        try f.seed([["symbol": .string("A")]])
        let afterSaves = ConvenienceRecord(0)
        let (result, onMain) = try await awaitCallback("the completion") { done in
            main.perform(outOfOwnQueue: { context in
                let count = try Ticker.filter(["symbol": "A"], in: context).count
                try context.save()  // nothing changed: no save
                return count
            }, afterSaveOnMain: { _ in
                afterSaves.withLock { $0 += 1 }
            }, completion: { done(($0, main.isOnQueue)) })
        }
        #expect(onMain)
        #expect(try result.get() == 1)
        let (failed, failedOnMain) = try await awaitCallback("the completion of a block that throws") { done in
            main.perform(outOfOwnQueue: { context -> Int in
                try Ticker.create(["symbol": .string("DROPPED")], in: context)
                throw QuarryError.refused("before saving")
            }, afterSaveOnMain: { _ in
                afterSaves.withLock { $0 += 1 }
            }, completion: { done(($0, main.isOnQueue)) })
        }
        #expect(failedOnMain)
        #expect(throws: QuarryError.self) { try failed.get() }
        #expect(afterSaves.withLock { $0 } == 0, "afterSave is for saves only")
        #expect(f.commits.withLock { $0 }.isEmpty)
        #expect(f.mergedInserts.withLock { $0 }.isEmpty)
    }
}

// MARK: - Fixtures

/// Which main context a test drives.
enum ConvenienceMainSetup: Sendable, CaseIterable, CustomStringConvertible {
    /// A main-queue root context over a new coordinator of a test store of that kind.
    case coordinator(StoreKind)
    /// An in-memory ``PersistentStack``'s main context (its main coordinator's commits are not
    /// smart-merged: the helpers merge their own saves).
    case stack

    static var allCases: [ConvenienceMainSetup] { [.coordinator(.memory), .coordinator(.sqlite), .stack] }

    var description: String {
        switch self {
        case .coordinator(let kind): "\(kind) coordinator"
        case .stack: "stack"
        }
    }
}

/// A main-queue context and what the tests watch of it: the IDs its merges announced as
/// inserted (appended on the main queue, by its objects-did-change observer) and every commit
/// through its coordinator (the helpers' background contexts save through that coordinator).
final class ConvenienceFixture: Sendable {
    let main: ObjectContext
    let coordinator: StoreCoordinator
    let mergedInserts = ConvenienceRecord<[ObjectID]>([])
    /// The IDs main's merges announced as updated (registered or not).
    let mergedUpdates = ConvenienceRecord<[ObjectID]>([])
    let commits = ConvenienceRecord<[SaveChanges]>([])
    private let keepAlive: (any Sendable)?
    private let token: ObservationToken

    init(_ setup: ConvenienceMainSetup) throws {
        switch setup {
        case .coordinator(let kind):
            let store = TestStore(kind)
            coordinator = try store.coordinator("main")
            main = ObjectContext(concurrencyType: .mainQueue, coordinator: coordinator, name: "main")
            keepAlive = store
        case .stack:
            var options = PersistentStack.Options()
            options.inMemory = true
            let stack = try PersistentStack(model: TestModels.tickers(), options: options)
            coordinator = stack.state.withLock { $0.mainCoordinator }
            main = stack.mainContext
            keepAlive = stack
        }
        let commits = commits, mergedInserts = mergedInserts, mergedUpdates = mergedUpdates
        coordinator.onCommit { changes in commits.withLock { $0.append(changes) } }
        token = main.addObjectsDidChangeObserver { change in
            mergedInserts.withLock { $0 += change.mergedInserted.ids }
            mergedUpdates.withLock { $0 += change.mergedUpdated.ids + change.updated.map(\.objectID) }
        }
    }

    deinit {
        token.cancel()
        coordinator.onCommit(nil)
    }

    /// Saves tickers with `values` through a private context of the same coordinator, before
    /// the test starts watching (the commits and merges it records are cleared); their IDs.
    @discardableResult
    func seed(_ values: [[String: Value]]) throws -> [ObjectID] {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "seed")
        let ids = try context.performAndWait {
            let objects = try values.map { try Ticker.create($0, in: context) }
            try context.save()
            return objects.map(\.objectID)
        }
        commits.withLock { $0 = [] }
        mergedInserts.withLock { $0 = [] }
        mergedUpdates.withLock { $0 = [] }
        return ids
    }
}

/// A value shared between the test and the queues it watches, behind a lock.
final class ConvenienceRecord<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    /// Runs `body` with the value locked.
    func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
}

/// What one `afterSave` call saw on the main queue.
struct AfterSaveCall: Sendable {
    var changes: SaveChanges
    var onMain: Bool
    var updatedPrice: Double?
    var deletedStillRegistered: Bool
    var mergedInserts: [ObjectID]
    var mergedUpdates: [ObjectID]
}

/// Starts an asynchronous call and waits (with ``defaultEventDeadline``) for the one callback it makes.
func awaitCallback<T: Sendable>(_ awaited: String,
                                _ start: @escaping @Sendable (@escaping @Sendable (T) -> Void) -> Void) async throws -> T {
    try await withDeadline(defaultEventDeadline, awaiting: awaited) {
        await withCheckedContinuation { (c: CheckedContinuation<T, Never>) in start { c.resume(returning: $0) } }
    }
}
