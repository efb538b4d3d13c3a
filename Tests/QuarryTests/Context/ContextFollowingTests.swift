import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Contexts: following the parent, refreshing everything, faults of deleted rows")
struct ContextFollowingTests {
    @Test("a child with automaticallyMergesChangesFromParent merges its parent's saves and merges; without it, it does not",
          arguments: [StoreKind.sqlite, .memory])
    func followsParent(kind: StoreKind) async throws {
        let store = TestStore(kind)
        let parent = try store.context("parent")
        let id = try parent.performAndWait {
            let t = try parent.insert(Ticker.self); t.symbol = "A"; t.price = 1
            try parent.save()
            return t.objectID
        }
        let follower = ObjectContext(concurrencyType: .privateQueue, parent: parent, name: "follower")
        let bystander = ObjectContext(concurrencyType: .privateQueue, parent: parent, name: "bystander")
        follower.performAndWait { follower.automaticallyMergesChangesFromParent = true }
        let followed = try follower.performAndWait { try follower.existingObject(with: id, as: Ticker.self) }
        let ignored = try bystander.performAndWait { try bystander.existingObject(with: id, as: Ticker.self) }
        #expect(follower.performAndWait { followed.price } == 1)
        // The follower's merge arrives on its queue: wait for its objects-did-change.
        let (events, continuation) = AsyncStream<Void>.makeStream()
        let token = follower.addObjectsDidChangeObserver { _ in continuation.yield() }
        defer { token.cancel() }
        try parent.performAndWait {
            try parent.existingObject(with: id, as: Ticker.self).price = 2
            try parent.save()
        }
        _ = try await nextElement(of: events, awaiting: "the follower's merge of its parent's save")
        #expect(follower.performAndWait { followed.price } == 2)
        #expect(bystander.performAndWait { ignored.price } == 1)

        // A save the parent merges from another context reaches the follower too.
        let other = try store.context("other")
        let changes = try other.performAndWait {
            try other.existingObject(with: id, as: Ticker.self).price = 3
            guard case .saved(let changes) = try other.save() else { throw QuarryError.refused("no save") }
            return changes
        }
        parent.performAndWait { parent.merge(fromDidSave: changes) }
        _ = try await nextElement(of: events, awaiting: "the follower's merge of its parent's merge")
        #expect(follower.performAndWait { followed.price } == 3)
        follower.performAndWait { follower.automaticallyMergesChangesFromParent = false }
        #expect(parent.childRelays.withLock { $0.isEmpty })
    }

    @Test("refreshAllObjects keeps unsaved changes on top of the stored state and faults the rest", arguments: StoreKind.allCases)
    func refreshAll(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context("refresher")
        let (a, b) = try context.performAndWait {
            let a = try context.insert(Ticker.self); a.symbol = "A"; a.price = 1
            let b = try context.insert(Ticker.self); b.symbol = "B"; b.price = 1
            try context.save()
            return (a, b)
        }
        let other = try store.context("other")
        try other.performAndWait {
            for t in try other.fetch(FetchRequest(entityName: "Ticker"), as: Ticker.self) { t.volume = 9; t.price = 5 }
            try other.save()
        }
        context.performAndWait {
            a.name = "mine"
            context.refreshAllObjects()
            #expect(b.isFault)
            #expect(b.price == 5 && b.volume == 9)
            #expect(a.name == "mine" && a.volume == 9 && a.price == 5 && a.hasChanges)
        }
    }

    @Test("a fault whose row is gone: a deleted object with default values, or (shouldDeleteInaccessibleFaults off) an empty one and a read error",
          arguments: [StoreKind.sqlite, .memory])
    func inaccessibleFaults(kind: StoreKind) throws {
        let store = TestStore(kind)
        let writer = try store.context("writer")
        let id = try writer.performAndWait {
            let t = try writer.insert(Ticker.self); t.symbol = "GONE"; t.price = 7
            try writer.save()
            return t.objectID
        }
        let deleting = try store.context("deleting")
        try deleting.performAndWait {
            deleting.delete(try deleting.existingObject(with: id))
            try deleting.save()
        }
        let reader = try store.context("reader")
        try reader.performAndWait {
            let fault = reader.object(with: id) as! Ticker
            #expect(fault.price == 0 && fault.isDeleted && fault.active)  // the model's defaults
            #expect(reader.lastReadError == nil)
        }
        let strict = try store.context("strict")
        strict.performAndWait {
            strict.shouldDeleteInaccessibleFaults = false
            let fault = strict.object(with: id)
            #expect(fault["price"] as Value == .null && !fault.isDeleted)
            #expect(strict.lastReadError != nil)
        }
    }
}
