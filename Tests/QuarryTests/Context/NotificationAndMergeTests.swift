import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Notifications and merging saves between contexts")
struct NotificationAndMergeTests {
    @Test("did-save carries inserted, updated and deleted IDs with changed keys", arguments: StoreKind.allCases)
    func didSavePayload(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        let events = Mutex<[DidSaveEvent]>([])
        context.addDidSaveObserver { e in events.withLock { $0.append(e) } }
        let (a, b) = try context.performAndWait {
            let a = try context.insert(Ticker.self); a.symbol = "A"
            let b = try context.insert(Ticker.self); b.symbol = "B"
            try context.save()
            a.price = 5
            context.delete(b)
            try context.save()
            return (a.objectID, b.objectID)
        }
        let saved = events.withLock { $0 }
        #expect(saved.count == 2)
        #expect(Set(saved[0].changes.inserted) == [a, b])
        #expect(saved[0].reachedStore)
        #expect(saved[1].changes.updated == [a])
        #expect(saved[1].changes.deleted == [b])
        #expect(saved[1].changes.changedKeys[a] == ["price"])
    }

    @Test("did-save is posted through NotificationCenter too")
    func notificationCenter() throws {
        let context = try TestStore(.memory).context()
        let received = Mutex(0)
        let token = NotificationCenter.default.addObserver(forName: ObjectContext.didSaveNotification, object: context, queue: nil) { n in
            if n.didSaveEvent?.changes.inserted.count == 1 { received.withLock { $0 += 1 } }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try context.performAndWait {
            let t = try context.insert(Ticker.self); t.symbol = "A"
            try context.save()
        }
        #expect(received.withLock { $0 } == 1)
    }

    @Test("did-save as an AsyncSequence")
    func asyncSequence() async throws {
        let context = try TestStore(.memory).context()
        let stream = context.didSaveEvents()
        try await context.perform {
            let t = try context.insert(Ticker.self); t.symbol = "A"
            try context.save()
        }
        let event = try await nextElement(of: stream, awaiting: "the save's did-save event")
        #expect(event?.changes.inserted.count == 1)
    }

    @Test("objects-did-change announces local inserts, updates and deletes once per turn")
    func objectsDidChange() throws {
        let context = try TestStore(.memory).context()
        let changes = Mutex<[(Int, Int, Int)]>([])
        let renamed = Mutex(0)
        context.addObjectsDidChangeObserver { c in
            if !c.permanentIDs.isEmpty { renamed.withLock { $0 += c.permanentIDs.count }; return }
            changes.withLock { $0.append((c.inserted.count, c.updated.count, c.deleted.count)) }
        }
        try context.performAndWait {
            let a = try context.insert(Ticker.self); a.symbol = "A"
            let b = try context.insert(Ticker.self); b.symbol = "B"
            context.processPendingChanges()
            try context.save()
            a.price = 3
            context.delete(b)
            context.processPendingChanges()
        }
        let seen = changes.withLock { $0 }
        #expect(renamed.withLock { $0 } == 2, "the save announced the two permanent IDs")
        #expect(seen.count == 2)
        #expect(seen[0] == (2, 0, 0))
        #expect(seen[1] == (0, 1, 1))
    }

    /// `count` tickers (symbols T0, T1, …) inserted and saved in `importer`; their IDs.
    private func savedTickers(_ count: Int, in importer: ObjectContext) throws -> [ObjectID] {
        try importer.performAndWait {
            let tickers = try (0..<count).map { i -> Ticker in let t = try importer.insert(Ticker.self); t.symbol = "T\(i)"; return t }
            try importer.save()
            return tickers.map(\.objectID)
        }
    }

    @Test("merge refreshes registered objects, keeps local edits, forgets deletes, loads nothing else", arguments: StoreKind.allCases)
    func mergeFromDidSave(kind: StoreKind) throws {
        let store = TestStore(kind)
        let importer = try store.context("importer")
        let ids = try savedTickers(10, in: importer)
        let main = try store.context("main")
        let (shown, edited, gone) = main.performAndWait { () -> (Ticker, Ticker, Ticker) in
            let shown = main.object(with: ids[0]) as! Ticker; _ = shown.symbol
            let edited = main.object(with: ids[1]) as! Ticker; edited.name = "local edit"
            let gone = main.object(with: ids[2]) as! Ticker; _ = gone.symbol
            return (shown, edited, gone)
        }
        let announced = Mutex<ObjectsDidChange?>(nil)
        main.addObjectsDidChangeObserver { c in announced.withLock { $0 = c } }
        let saved = try importer.performAndWait { () -> SaveChanges in
            for id in ids[0..<2] + ids[5..<10] { (importer.object(with: id) as! Ticker).price = 99 }
            importer.delete(importer.object(with: ids[2]))
            let n = try importer.insert(Ticker.self); n.symbol = "NEW"
            guard case .saved(let changes) = try importer.save() else { return SaveChanges() }
            return changes
        }
        main.performAndWait {
            let before = main.registeredObjectCount
            main.merge(fromDidSave: saved)
            #expect(main.registeredObjectCount == before - 1, "nothing loaded; the deleted object forgotten")
            #expect(shown.price == 99)
            #expect(edited.price == 99)
            #expect(edited.name == "local edit", "local edit re-applied")
            #expect(edited.hasChanges)
            #expect(gone.managedObjectContext == nil)
        }
        let change = try #require(announced.withLock { $0 })
        #expect(change.refreshed.count == 2)
        #expect(Set(change.mergedUpdated.ids) == Set(ids[5..<10]))
        #expect(change.mergedInserted.ids.count == 1)
        #expect(change.mergedDeletedIDs == [ids[2]])
        // The unregistered ones keep their own stored state and changed properties.
        #expect(change.mergedUpdated.invariantViolation() == nil)
        #expect(change.mergedUpdated.carriesSnapshots == saved.carriesSnapshots)
        for (n, object) in change.mergedUpdated.enumerated() {
            let k = try #require(saved.updated.firstIndex(of: object.id))
            if saved.carriesSnapshots { #expect(object.snapshot == saved.updatedSnapshots[k]) }
            if saved.changedBits.count == saved.updated.count { #expect(change.mergedUpdated.changedBits(at: n) == saved.changedBits[k]) }
        }
    }

    @Test("a merge into a context that registered none of the objects announces the save's IDs, states and change bits in the save's order", arguments: StoreKind.allCases)
    func mergeWithNothingRegistered(kind: StoreKind) throws {
        let store = TestStore(kind)
        let importer = try store.context("importer")
        let ids = try savedTickers(6, in: importer)
        let saved = try importer.performAndWait { () -> SaveChanges in
            for (n, id) in ids.enumerated().reversed() { (importer.object(with: id) as! Ticker).price = Double(n) + 1 }
            let n = try importer.insert(Ticker.self); n.symbol = "NEW"
            guard case .saved(let changes) = try importer.save() else { return SaveChanges() }
            return changes
        }
        #expect(saved.updated.count == 6 && saved.inserted.count == 1)
        let main = try store.context("main")
        let announced = Mutex<ObjectsDidChange?>(nil)
        main.addObjectsDidChangeObserver { c in announced.withLock { $0 = c } }
        main.performAndWait {
            main.merge(fromDidSave: saved)
            #expect(main.registeredObjectCount == 0, "nothing loaded")
        }
        let change = try #require(announced.withLock { $0 })
        #expect(change.updated.isEmpty && change.refreshed.isEmpty)
        #expect(change.mergedUpdated.ids == saved.updated)
        #expect(change.mergedInserted.ids == saved.inserted)
        #expect(change.mergedUpdated.snapshots == saved.updatedSnapshots)
        #expect(change.mergedInserted.snapshots == saved.insertedSnapshots)
        #expect(change.mergedUpdated.changedBits == saved.changedBits)
        #expect(change.mergedUpdated.carriesSnapshots == saved.carriesSnapshots)
        #expect(change.mergedUpdated.invariantViolation() == nil && change.mergedInserted.invariantViolation() == nil)
        if saved.carriesSnapshots {
            #expect(change.mergedUpdated.snapshots.count == 6)
        }
    }

    @Test("refresh without merging discards changes; reset forgets everything", arguments: StoreKind.allCases)
    func refreshAndReset(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        let invalidated = Mutex(false)
        context.addObjectsDidChangeObserver { c in if c.invalidatedAll { invalidated.withLock { $0 = true } } }
        try context.performAndWait {
            let t = try context.insert(Ticker.self); t.symbol = "A"; t.price = 1
            try context.save()
            t.price = 2
            context.refresh(t, mergeChanges: false)
            #expect(t.isFault)
            #expect(t.price == 1)
            #expect(!context.hasChanges)
            t.price = 3
            context.reset()
            #expect(!context.hasChanges)
            #expect(context.registeredObjectCount == 0)
            #expect(t.managedObjectContext == nil)
        }
        #expect(invalidated.withLock { $0 })
    }
}
