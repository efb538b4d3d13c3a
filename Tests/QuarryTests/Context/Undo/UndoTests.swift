import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A context with an undo manager over a fresh store of `kind`.
func undoContext(_ store: TestStore, _ name: String = "undo") throws -> ObjectContext {
    let context = try store.context(name)
    context.performAndWait { context.undoManager = ContextUndoManager() }
    return context
}

@Suite("Undo and redo")
struct UndoTests {
    @Test("an attribute set is undone and redone; canUndo, canRedo and action names follow", arguments: StoreKind.allCases)
    func attribute(kind: StoreKind) throws {
        let context = try undoContext(TestStore(kind))
        let undo = try #require(context.performAndWait { context.undoManager })
        let t = try context.performAndWait {
            let t = try context.insert(Ticker.self); t.symbol = "ACME"; t.price = 10
            try context.save()
            return t
        }
        context.performAndWait {
            t.price = 12
            undo.setActionName("Edit Price")
        }
        try context.performAndWait {
            #expect(undo.canUndo && !undo.canRedo && undo.undoActionName == "Edit Price")
            try context.undo()
            #expect(t.price == 10 && t.isUpdated)
            #expect(undo.canRedo && undo.redoActionName == "Edit Price")
            try context.redo()
            #expect(t.price == 12)
            #expect(undo.undoActionName == "Edit Price" && !undo.canRedo)
        }
    }

    @Test("one group per perform block; explicit groups join their changes; a new change drops the redo groups")
    func grouping() throws {
        let context = try undoContext(TestStore(.memory))
        let undo = try #require(context.performAndWait { context.undoManager })
        let t = try context.performAndWait { let t = try context.insert(Ticker.self); t.symbol = "A"; t.price = 1; return t }
        context.performAndWait { t.price = 2 }
        context.performAndWait { t.price = 3; t.volume = 30 }
        context.performAndWait {
            undo.beginUndoGrouping()
            t.price = 4
            undo.beginUndoGrouping()
            t.volume = 40
            undo.endUndoGrouping()
        }
        context.performAndWait { t.price = 5 }  // joins the explicit group, still open
        try context.performAndWait {
            #expect(throws: UndoRefusal.self) { try context.undo() }
            undo.endUndoGrouping()
            try context.undo()
            #expect(t.price == 3 && t.volume == 30)
            try context.undo()
            #expect(t.price == 2 && t.volume == 0)
            try context.redo()
            #expect(t.price == 3 && t.volume == 30)
            t.price = 9
            #expect(!undo.canRedo)
            try context.undo()
            #expect(t.price == 3)
            try context.undo()
            try context.undo()
            try context.undo()
            // The insert itself was the first group: undoing it takes the ticker out.
            #expect(t.managedObjectContext == nil && context.inserted.isEmpty)
            #expect(!undo.canUndo)
            try context.redo()
            #expect(t.managedObjectContext === context && t.isInserted && t.price == 1)
        }
    }

    @Test("levelsOfUndo keeps the newest groups; removeAllActions, rollback and reset forget them")
    func levels() throws {
        let context = try undoContext(TestStore(.memory))
        let undo = try #require(context.performAndWait { context.undoManager })
        let t = try context.performAndWait { let t = try context.insert(Ticker.self); t.symbol = "A"; try context.save(); return t }
        context.performAndWait { undo.levelsOfUndo = 2 }
        for p in 1...5 { context.performAndWait { t.price = Double(p) } }
        try context.performAndWait {
            try context.undo(); try context.undo()
            #expect(t.price == 3 && !undo.canUndo)
            try context.undo()
            #expect(t.price == 3)
            t.price = 7
            #expect(undo.canUndo)
            context.rollback()
            #expect(!undo.canUndo && !undo.canRedo)
        }
    }

    @Test("relationships are restored on both sides; an undone delete comes back with its cascade", arguments: StoreKind.allCases)
    func deleteCascade(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try undoContext(store)
        let (s, t1, t2, tag) = try context.performAndWait {
            let s = try context.insert(Sector.self); s.name = "Tech"
            let t1 = try context.insert(Ticker.self); t1.symbol = "ONE"; t1.sector = s
            let t2 = try context.insert(Ticker.self); t2.symbol = "TWO"; t2.sector = s
            let tag = try context.insert(TickerTag.self); tag.label = "hot"
            try t1.add(tag, toKey: "tags")
            try context.save()
            return (s, t1, t2, tag)
        }
        context.performAndWait { t2.sector = nil }
        try context.performAndWait {
            #expect(s.tickers == [t1])
            try context.undo()
            #expect(t2.sector === s && s.tickers == [t1, t2])
        }
        context.performAndWait { context.delete(s) }
        try context.performAndWait {
            #expect(context.deleted.count == 3 && tag.tickers.isEmpty)
            try context.undo()
            #expect(context.deleted.isEmpty && !s.isDeleted && !t1.isDeleted)
            #expect(s.tickers == [t1, t2] && tag.tickers == [t1] && t1.sector === s)
            try context.redo()
            try context.save()  // the delete reaches the store
        }
        try context.performAndWait {
            #expect(try context.count(ofEntity: "Ticker") == 0)
            try context.undo()  // after the save: inserted again, under new IDs
            #expect(s.isInserted && t1.isInserted && t2.isInserted)
            try context.save()
        }
        let reader = try store.context("reader")
        try reader.performAndWait {
            let sectors = try reader.fetch(FetchRequest(entityName: "Sector"), as: Sector.self)
            #expect(sectors.map(\.name) == ["Tech"])
            #expect(Set(sectors[0].tickers.map(\.symbol)) == ["ONE", "TWO"])
            let tags = try reader.fetch(FetchRequest(entityName: "Tag"), as: TickerTag.self)
            #expect(tags.first?.tickers.map(\.symbol) == ["ONE"])
        }
    }

    @Test("undoing a saved change is written by the next save; an undone saved insert is deleted", arguments: StoreKind.allCases)
    func acrossSave(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try undoContext(store)
        let t = try context.performAndWait { let t = try context.insert(Ticker.self); t.symbol = "A"; t.price = 1; try context.save(); return t }
        context.performAndWait { t.price = 2 }
        try context.performAndWait { try context.save() }
        try context.performAndWait {
            try context.undo()
            #expect(t.price == 1 && t.isUpdated)
            try context.save()
        }
        let reader = try store.context("reader")
        #expect(try reader.performAndWait { try reader.fetch(FetchRequest(entityName: "Ticker"), as: Ticker.self).map(\.price) } == [1])
        try context.performAndWait {
            try context.undo()  // the insert
            #expect(t.isDeleted)
            try context.save()
        }
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Ticker") } == 0)
    }

    @Test("an undo is refused, changing nothing, when another writer changed the same property; other properties do not matter",
          arguments: StoreKind.allCases)
    func refusedAfterOtherWriter(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try undoContext(store)
        let t = try context.performAndWait { let t = try context.insert(Ticker.self); t.symbol = "A"; t.price = 1; try context.save(); return t }
        context.performAndWait { t.price = 2; t.volume = 5 }
        try context.performAndWait { try context.save() }
        let other = try store.context("other")
        try other.performAndWait {
            let mine = try #require(try other.fetch(FetchRequest(entityName: "Ticker"), as: Ticker.self).first)
            mine.price = 3
            try other.save()
        }
        try context.performAndWait {
            let refusal = try #require(throws: UndoRefusal.self) { try context.undo() }
            #expect(refusal.conflicts.map(\.key) == ["price"])
            #expect(refusal.description.contains("'price' was changed by another writer (2.0 → 3.0)"))
            #expect(t.price == 2 && t.volume == 5 && !t.hasChanges)
            #expect(context.undoManager?.canUndo == true)
        }
        // Another writer changing only a property the group did not touch lets the undo through.
        let context2 = try undoContext(store, "undo2")
        let t2 = try context2.performAndWait { try #require(try context2.fetch(FetchRequest(entityName: "Ticker"), as: Ticker.self).first) }
        context2.performAndWait { t2.volume = 9 }
        try context2.performAndWait { try context2.save() }
        try other.performAndWait {
            let mine = try #require(try other.fetch(FetchRequest(entityName: "Ticker"), as: Ticker.self).first)
            other.refresh(mine, mergeChanges: false)
            mine.price = 4
            try other.save()
        }
        try context2.performAndWait {
            try context2.undo()
            #expect(t2.volume == 5)
            context2.mergePolicy = .mergeByPropertyObjectTrump  // its price is stale: keep the store's
            try context2.save()
        }
        // A deleted object is a conflict too.
        try other.performAndWait {
            let mine = try #require(try other.fetch(FetchRequest(entityName: "Ticker"), as: Ticker.self).first)
            other.delete(mine)
            try other.save()
        }
        try context2.performAndWait {
            let refusal = try #require(throws: UndoRefusal.self) { try context2.redo() }
            #expect(refusal.conflicts.count == 1 && refusal.conflicts[0].key == nil)
        }
    }

    @Test("an ordered to-many's order and positions come back")
    func ordered() throws {
        let context = try undoContext(TestStore(.sqlite))
        try context.performAndWait {
            let p = try context.insert(Portfolio.self); p.title = "P"
            let ts = try (0..<3).map { i -> Ticker in let t = try context.insert(Ticker.self); t.symbol = "T\(i)"; return t }
            p.holdings = ts
            try context.save()
            context.undoManager?.removeAllActions()
            context.undoManager?.beginUndoGrouping()
            try p.remove(ts[1], fromKey: "holdings")
            context.undoManager?.endUndoGrouping()
            #expect(p.holdings.map(\.symbol) == ["T0", "T2"])
            try context.undo()
            #expect(p.holdings.map(\.symbol) == ["T0", "T1", "T2"])
            context.undoManager?.beginUndoGrouping()
            p.holdings = [ts[2], ts[0], ts[1]]
            context.undoManager?.endUndoGrouping()
            try context.undo()
            #expect(p.holdings.map(\.symbol) == ["T0", "T1", "T2"])
            try context.redo()
            #expect(p.holdings.map(\.symbol) == ["T2", "T0", "T1"])
        }
    }

    @Test("a context without an undo manager records nothing and undo does nothing")
    func notRecorded() throws {
        let plain = try TestStore(.memory).context()
        try plain.performAndWait {
            let t = try plain.insert(Ticker.self); t.symbol = "A"
            try plain.undo()  // nothing to undo, no manager
            #expect(plain.undoManager == nil && t.isInserted)
        }
    }
}
