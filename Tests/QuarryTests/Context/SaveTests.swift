import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Saves: child to parent to store, validation, atomicity")
struct SaveTests {
    @Test("a child's save reaches the parent only; the parent's save reaches the store", arguments: StoreKind.allCases)
    func childParentStore(kind: StoreKind) throws {
        let store = TestStore(kind)
        let parent = try store.context("parent")
        let child = ObjectContext(concurrencyType: .privateQueue, parent: parent, name: "child")
        let childTicker = try child.performAndWait { () -> ObjectID in
            let s = try child.insert(Sector.self); s.name = "Tech"
            let t = try child.insert(Ticker.self); t.symbol = "ACME"; t.sector = s
            try child.save()
            #expect(!child.hasChanges)
            return t.objectID
        }
        let reader = try store.context("reader")
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Ticker") } == 0, "not on disk yet")
        try parent.performAndWait {
            #expect(parent.hasChanges)
            #expect(parent.inserted.count == 2)
            let t = parent.object(with: childTicker) as! Ticker
            #expect(t.symbol == "ACME")
            #expect(t.sector?.name == "Tech")
            try parent.save()
        }
        try reader.performAndWait {
            #expect(try reader.count(ofEntity: "Ticker") == 1)
            let t = try reader.objects(of: Ticker.self)[0]
            #expect(t.sector?.name == "Tech")
        }
        // The child can still reach the object by its old temporary ID.
        child.performAndWait {
            let t = child.object(with: childTicker) as! Ticker
            #expect(t.symbol == "ACME")
        }
    }

    @Test("a child sees its parent's unsaved changes and edits existing objects", arguments: StoreKind.allCases)
    func childEditsParentObjects(kind: StoreKind) throws {
        let store = TestStore(kind)
        let parent = try store.context("parent")
        let id = try parent.performAndWait {
            let t = try parent.insert(Ticker.self); t.symbol = "ACME"; t.price = 1
            try parent.save()
            t.price = 2  // unsaved in the parent
            return t.objectID
        }
        let child = ObjectContext(concurrencyType: .privateQueue, parent: parent, name: "child")
        try child.performAndWait {
            let t = child.object(with: id) as! Ticker
            #expect(t.price == 2)
            t.volume = 7
            try child.save()
        }
        try parent.performAndWait {
            let t = parent.object(with: id) as! Ticker
            #expect(t.volume == 7 && t.price == 2)
            try parent.save()
        }
        let reader = try store.context("reader")
        reader.performAndWait {
            let t = reader.object(with: id) as! Ticker
            #expect(t.volume == 7 && t.price == 2)
        }
    }

    @Test("a save that fails validation reports every failure and leaves the store unchanged", arguments: StoreKind.allCases)
    func validationFailure(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context()
        try context.performAndWait {
            let ok = try context.insert(Ticker.self); ok.symbol = "GOOD"
            let bad = try context.insert(Ticker.self)
            bad.symbol = "lowercase-and-long"
            bad.price = -1
            let missing = try context.insert(Quote.self)
            _ = missing
            let error = #expect(throws: ObjectValidationError.self) { try context.save() }
            let failures = error?.failures ?? []
            #expect(failures.contains { $0.entity == "Ticker" && $0.key == "symbol" && $0.reason.contains("maximum") })
            #expect(failures.contains { $0.key == "symbol" && $0.reason.contains("does not match") })
            #expect(failures.contains { $0.key == "price" && $0.reason.contains("below the minimum") })
            #expect(failures.contains { $0.entity == "Quote" && $0.key == "price" && $0.reason == "is required" })
            #expect(failures.contains { $0.entity == "Quote" && $0.key == "time" })
            #expect(failures.allSatisfy { $0.objectID.isTemporary })
        }
        let reader = try store.context("reader")
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Ticker") } == 0)
    }

    @Test("a save interrupted by an error leaves no partial rows", arguments: StoreKind.allCases)
    func atomicity(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context()
        try context.performAndWait {
            let s = try context.insert(Sector.self); s.name = "Tech"
            try context.save()
            for i in 0..<3 { let t = try context.insert(Ticker.self); t.symbol = "T\(i)" }
            let dup = try context.insert(Sector.self); dup.name = "Tech"  // violates the unique name
            #expect(throws: ConstraintConflictError.self) { try context.save() }
        }
        let reader = try store.context("reader")
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Ticker") } == 0)
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Sector") } == 1)
    }

    @Test("transient attributes live in memory only", arguments: StoreKind.allCases)
    func transient(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context()
        let id = try context.performAndWait {
            let t = try context.insert(Ticker.self); t.symbol = "ACME"; t.note = "remember me"
            try context.save()
            #expect(t.note == "remember me")
            return t.objectID
        }
        let reader = try store.context("reader")
        reader.performAndWait { #expect((reader.object(with: id) as! Ticker).note == nil) }
    }
}
