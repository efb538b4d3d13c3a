import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Delete rules")
struct DeleteRuleTests {
    @Test("nullify removes the deleted object from the inverse", arguments: StoreKind.allCases)
    func nullify(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        try context.performAndWait {
            let s = try context.insert(Sector.self); s.name = "Tech"
            let t = try context.insert(Ticker.self); t.symbol = "ACME"; t.sector = s
            try context.save()
            context.delete(t)
            #expect(s.tickers.isEmpty)
            try context.save()
            #expect(try context.count(ofEntity: "Ticker") == 0)
            #expect(try context.count(ofEntity: "Sector") == 1)
        }
    }

    @Test("cascade deletes the related objects, recursively", arguments: StoreKind.allCases)
    func cascade(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context()
        try context.performAndWait {
            let s = try context.insert(Sector.self); s.name = "Tech"
            for i in 0..<3 {
                let t = try context.insert(Ticker.self); t.symbol = "T\(i)"; t.sector = s
                let q = try context.insert(Quote.self); q.price = 1; q.time = Date(); q.ticker = t
            }
            try context.save()
            context.delete(s)
            #expect(context.deleted.count == 7)
            try context.save()
        }
        let reader = try store.context("reader")
        for entity in ["Sector", "Ticker", "Quote"] {
            #expect(try reader.performAndWait { try reader.count(ofEntity: entity) } == 0)
        }
    }

    @Test("deny refuses the save while the relationship holds objects", arguments: StoreKind.allCases)
    func deny(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context()
        try context.performAndWait {
            let owner = try context.insert(Person.self); owner.name = "Ada"
            let p = try context.insert(Portfolio.self); p.owner = owner
            try context.save()
            context.delete(owner)
            let error = #expect(throws: ObjectValidationError.self) { try context.save() }
            #expect(error?.failures.first?.key == "portfolios")
            #expect(error?.description.contains("delete denied") == true)
            context.rollback()
            #expect(try context.count(ofEntity: "Person") == 1)
            // Emptying the relationship first lets the delete through.
            context.delete(p)
            context.delete(owner)
            try context.save()
            #expect(try context.count(ofEntity: "Person") == 0)
        }
    }

    @Test("no action leaves the related objects pointing at the deleted one", arguments: StoreKind.allCases)
    func noAction(kind: StoreKind) throws {
        var b = ModelBuilder()
        b.entity("Folder") { e in
            e.attribute("name", .string)
            e.toMany("notes", destination: "Note", inverse: "folder", deleteRule: .noAction)
        }
        b.entity("Note") { e in
            e.attribute("text", .string)
            e.toOne("folder", destination: "Folder", inverse: "notes")
        }
        let store = TestStore(kind, model: try b.build())
        let context = try store.context()
        try context.performAndWait {
            let f = try context.insertObject(entityName: "Folder")
            let n = try context.insertObject(entityName: "Note")
            try n.setObject(f, forKey: "folder")
            try context.save()
            let folderID = f.objectID
            context.delete(f)
            #expect(!n.hasChanges)
            #expect(try n.objectID(forKey: "folder") == folderID)
            try context.save()
        }
    }
}
