import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Under a merging policy a clash on a uniqueness constraint is an upsert: the clashing objects
/// become one (the stored row, or the first of the save's objects), with the values the policy
/// picks, and everything related to the others is related to it.
@Suite("Uniqueness constraints under the merging policies")
struct UniquenessMergePolicyTests {
    /// What one policy makes of a clash, as name, city and employee count of the one company.
    struct Expectation: Sendable, CustomStringConvertible {
        let policy: MergePolicy
        let name: Value
        let city: Value
        let employees: Value
        var description: String { policy.description }
    }

    /// Stored ACME (name Acme, city Paris, no employees) meets an inserted ACME (name Acme Corp,
    /// no city, 20 employees).
    static let upserts: [Expectation] = [
        Expectation(policy: .mergeByPropertyObjectTrump, name: .string("Acme Corp"), city: .string("Paris"), employees: .integer(20)),
        Expectation(policy: .mergeByPropertyStoreTrump, name: .string("Acme"), city: .string("Paris"), employees: .integer(20)),
        Expectation(policy: .overwrite, name: .string("Acme Corp"), city: .null, employees: .integer(20)),
        Expectation(policy: .rollback, name: .string("Acme"), city: .string("Paris"), employees: .null),
    ]

    @Test("an insert clashing with a stored row is merged into it; the insert takes the row's ID",
          arguments: StoreKind.allCases, upserts)
    func upsertIntoStoredRow(kind: StoreKind, expected: Expectation) throws {
        let (store, stored) = try UniquenessFixture.store(kind)
        let acmeID = stored["ACME"]!
        let context = try store.context("importer", policy: expected.policy)
        try context.performAndWait {
            let acme = try UniquenessFixture.company(in: context, ["code": .string("ACME"), "name": .string("Acme Corp"),
                                                                   "employees": .integer(20)], products: ["Rocket"])
            let rocket = try #require(try acme.objects(forKey: "products").first)
            let report = try context.saveAndReport()
            #expect(report.resolvedConflicts == 1)
            guard case .saved(let changes) = report.outcome else { Issue.record("nothing saved"); return }
            #expect(changes.inserted.count == 1, "only the product is new")
            #expect(!changes.inserted.contains(acmeID))

            #expect(acme.objectID == acmeID, "the merged insert resolves to the stored row")
            #expect(acme.managedObjectContext == nil)
            let survivor = context.object(with: acme.objectID)
            #expect(survivor !== acme && survivor.managedObjectContext === context)
            #expect(survivor["name"] == expected.name)
            #expect(try rocket.objectID(forKey: "company") == acmeID, "relationships to the insert point to the row")
            #expect(Set(try survivor.objects(forKey: "products").map { UniquenessFixture.text($0["title"]) }) == ["Anvil", "Rocket"])
            #expect(!context.hasChanges)
        }
        let companies = try UniquenessFixture.companies(in: store)
        #expect(companies.count == 1)
        let row = try #require(companies["ACME"])
        #expect(row.id == acmeID)
        #expect(row.name == expected.name)
        #expect(row.city == expected.city)
        #expect(row.employees == expected.employees)
        #expect(row.products == ["Anvil", "Rocket"])
    }

    /// Two inserted BOLTs in one save: the first (name Bolt, city Oslo), then the second (name
    /// Bolt 2, 5 employees). The first plays the stored side.
    static let inSaveMerges: [Expectation] = [
        Expectation(policy: .mergeByPropertyObjectTrump, name: .string("Bolt 2"), city: .string("Oslo"), employees: .integer(5)),
        Expectation(policy: .mergeByPropertyStoreTrump, name: .string("Bolt"), city: .string("Oslo"), employees: .integer(5)),
        Expectation(policy: .overwrite, name: .string("Bolt 2"), city: .null, employees: .integer(5)),
        Expectation(policy: .rollback, name: .string("Bolt"), city: .string("Oslo"), employees: .null),
    ]

    @Test("two inserts with one key in one save become one row; the later takes the earlier's ID",
          arguments: StoreKind.allCases, inSaveMerges)
    func clashInsideOneSave(kind: StoreKind, expected: Expectation) throws {
        let store = TestStore(kind, model: UniquenessFixture.model())
        let context = try store.context("importer", policy: expected.policy)
        try context.performAndWait {
            let first = try UniquenessFixture.company(in: context, ["code": .string("BOLT"), "name": .string("Bolt"),
                                                                    "city": .string("Oslo")], products: ["Nut"])
            let second = try UniquenessFixture.company(in: context, ["code": .string("BOLT"), "name": .string("Bolt 2"),
                                                                     "employees": .integer(5)], products: ["Screw"])
            let screw = try #require(try second.objects(forKey: "products").first)
            try context.save()
            #expect(!first.objectID.isTemporary && first.managedObjectContext === context)
            #expect(second.objectID == first.objectID)
            #expect(second.managedObjectContext == nil)
            #expect(context.object(with: second.objectID) === first)
            #expect(try screw.objectID(forKey: "company") == first.objectID)
            #expect(first["name"] == expected.name)
        }
        let companies = try UniquenessFixture.companies(in: store)
        #expect(companies.count == 1)
        let row = try #require(companies["BOLT"])
        #expect(row.name == expected.name)
        #expect(row.city == expected.city)
        #expect(row.employees == expected.employees)
        #expect(row.products == ["Nut", "Screw"])
    }

    @Test("a compound constraint merges only the insert that matches every key attribute", arguments: StoreKind.allCases)
    func compoundKeyUpsert(kind: StoreKind) throws {
        let store = TestStore(kind, model: UniquenessFixture.model())
        let context = try store.context("importer", policy: .mergeByPropertyObjectTrump)
        let storedID = try context.performAndWait {
            let listing = try context.insertObject(entityName: "Listing")
            try listing.setValues(["exchange": .string("XNYS"), "symbol": .string("ACME"), "price": .double(10),
                                   "currency": .string("USD")])
            try context.save()
            return listing.objectID
        }
        try context.performAndWait {
            let other = try context.insertObject(entityName: "Listing")
            try other.setValues(["exchange": .string("XNAS"), "symbol": .string("ACME"), "price": .double(11)])
            let same = try context.insertObject(entityName: "Listing")
            try same.setValues(["exchange": .string("XNYS"), "symbol": .string("ACME"), "price": .double(12)])
            try context.save()
            #expect(same.objectID == storedID)
            #expect(other.objectID != storedID && !other.objectID.isTemporary)
        }
        let reader = try store.context("reader")
        try reader.performAndWait {
            #expect(try reader.count(ofEntity: "Listing") == 2)
            let listing = try reader.existingObject(with: storedID)
            #expect(listing["price"] == .double(12))
            #expect(listing["currency"] == .string("USD"), "what the insert left unset stays")
        }
    }

    @Test("an update onto another row's key merges the updated object into that row", arguments: StoreKind.allCases)
    func updateMergedIntoStoredRow(kind: StoreKind) throws {
        let (store, stored) = try UniquenessFixture.store(kind, others: [["code": .string("BOLT"), "name": .string("Bolt")]])
        let context = try store.context("editor", policy: .mergeByPropertyObjectTrump)
        try context.performAndWait {
            let bolt = try context.existingObject(with: stored["BOLT"]!)
            try bolt.setValue(.string("ACME"), forKey: "code")
            try bolt.setValue(.string("Bergen"), forKey: "city")
            try context.save()
            #expect(bolt.objectID == stored["ACME"])
            #expect(bolt.managedObjectContext == nil)
        }
        let companies = try UniquenessFixture.companies(in: store)
        #expect(Set(companies.keys) == ["ACME"])
        let acme = try #require(companies["ACME"])
        #expect(acme.id == stored["ACME"])
        #expect(acme.name == .string("Acme"), "the name the update did not change is the row's")
        #expect(acme.city == .string("Bergen"))
        #expect(acme.products == ["Anvil", "Nut"], "the merged object's products moved to the row")
    }

    @Test("under rollback an update onto another row's key is discarded", arguments: StoreKind.allCases)
    func updateDiscardedUnderRollback(kind: StoreKind) throws {
        let (store, stored) = try UniquenessFixture.store(kind, others: [["code": .string("BOLT")]])
        let context = try store.context("editor", policy: .rollback)
        try context.performAndWait {
            let bolt = try context.existingObject(with: stored["BOLT"]!)
            try bolt.setValue(.string("ACME"), forKey: "code")
            try context.save()
            #expect(bolt["code"] == .string("BOLT"))
            #expect(bolt.objectID == stored["BOLT"])
        }
        #expect(Set(try UniquenessFixture.companies(in: store).keys) == ["ACME", "BOLT"])
    }

    @Test("two sectors named alike in one import become one sector holding both tickers", arguments: StoreKind.allCases)
    func tickerSectors(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context("importer", policy: .mergeByPropertyObjectTrump)
        try context.performAndWait {
            let tech = try context.insert(Sector.self); tech.name = "Tech"
            let again = try context.insert(Sector.self); again.name = "Tech"
            let a = try context.insert(Ticker.self); a.symbol = "AAA"; a.sector = tech
            let b = try context.insert(Ticker.self); b.symbol = "BBB"; b.sector = again
            try context.save()
            #expect(b.sector === tech)
            #expect(tech.tickers.map(\.symbol).sorted() == ["AAA", "BBB"])
        }
        let reader = try store.context("reader")
        try reader.performAndWait {
            let sectors = try reader.objects(of: Sector.self)
            #expect(sectors.count == 1)
            #expect(sectors.first?.tickers.count == 2)
        }
    }

    @Test("an insert whose keys name two stored rows is refused: no policy merges two rows into one",
          arguments: StoreKind.allCases)
    func twoStoredRowsAreNotMerged(kind: StoreKind) throws {
        let store = TestStore(kind, model: UniquenessFixture.model())
        let context = try store.context("importer", policy: .mergeByPropertyObjectTrump)
        try context.performAndWait {
            for (email, handle) in [("a@example.com", "ann"), ("b@example.com", "bob")] {
                let account = try context.insertObject(entityName: "Account")
                try account.setValues(["email": .string(email), "handle": .string(handle)])
            }
            try context.save()
            let both = try context.insertObject(entityName: "Account")
            try both.setValues(["email": .string("a@example.com"), "handle": .string("bob")])
            let error = #expect(throws: ConstraintConflictError.self) { try context.save() }
            #expect(error?.reason != nil)
            #expect(error?.conflicts.map(\.constraint) == [["email"], ["handle"]])
            #expect(error?.conflicts.allSatisfy { $0.databaseObjectID != nil } == true)
        }
        let reader = try store.context("reader")
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Account") } == 2)
    }
}
