import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Under the error merge policy a save whose objects clash on a uniqueness constraint is
/// refused with one ``ConstraintConflictError`` listing every clash, and writes nothing.
@Suite("Uniqueness constraints under the error policy")
struct UniquenessErrorPolicyTests {
    @Test("clashes with a stored row and among the save's inserts are all listed; nothing is written",
          arguments: StoreKind.allCases)
    func listsEveryClash(kind: StoreKind) throws {
        let (store, stored) = try UniquenessFixture.store(kind)
        let context = try store.context("importer")
        try context.performAndWait {
            let acme = try UniquenessFixture.company(in: context, ["code": .string("ACME"), "name": .string("Acme Corp")],
                                                     products: ["Rocket"])
            let bolt1 = try UniquenessFixture.company(in: context, ["code": .string("BOLT"), "name": .string("Bolt 1")])
            let bolt2 = try UniquenessFixture.company(in: context, ["code": .string("BOLT"), "name": .string("Bolt 2")])
            try UniquenessFixture.company(in: context, ["code": .string("CORE")])  // no clash
            let error = #expect(throws: ConstraintConflictError.self) { try context.save() }
            let conflicts = error?.conflicts ?? []
            #expect(conflicts.count == 2)
            let name = acme.entity.attributeIndex("name")!

            let withStored = try #require(conflicts.first { $0.values == [.string("ACME")] })
            #expect(withStored.entityName == "Company")
            #expect(withStored.constraint == ["code"])
            #expect(withStored.constraintValues == ["code": .string("ACME")])
            #expect(withStored.databaseObjectID == stored["ACME"])
            #expect(withStored.databaseSnapshot?.values[name] == .string("Acme"))
            #expect(withStored.conflictingObjectIDs == [acme.objectID])
            #expect(withStored.conflictingSnapshots.map { $0.values[name] } == [.string("Acme Corp")])

            let inSave = try #require(conflicts.first { $0.values == [.string("BOLT")] })
            #expect(inSave.databaseObjectID == nil && inSave.databaseSnapshot == nil)
            #expect(inSave.conflictingObjectIDs == [bolt1.objectID, bolt2.objectID])
            #expect(inSave.conflictingSnapshots.map { $0.values[name] } == [.string("Bolt 1"), .string("Bolt 2")])

            #expect(String(describing: error!).contains("code='ACME'"))
            #expect(context.hasChanges, "the changes stay for the caller to resolve")
            #expect(acme.isInserted && acme.managedObjectContext === context)
        }
        let companies = try UniquenessFixture.companies(in: store)
        #expect(Set(companies.keys) == ["ACME"])
        #expect(companies["ACME"]?.name == .string("Acme"))
        #expect(companies["ACME"]?.products == ["Anvil"])
    }

    @Test("a compound constraint clashes only when every key attribute matches", arguments: StoreKind.allCases)
    func compoundKey(kind: StoreKind) throws {
        let store = TestStore(kind, model: UniquenessFixture.model())
        let context = try store.context()
        let storedID = try context.performAndWait {
            let listing = try context.insertObject(entityName: "Listing")
            try listing.setValues(["exchange": .string("XNYS"), "symbol": .string("ACME"), "price": .double(10)])
            try context.save()
            return listing.objectID
        }
        try context.performAndWait {
            let other = try context.insertObject(entityName: "Listing")
            try other.setValues(["exchange": .string("XNAS"), "symbol": .string("ACME")])
            let clash = try context.insertObject(entityName: "Listing")
            try clash.setValues(["exchange": .string("XNYS"), "symbol": .string("ACME"), "price": .double(12)])
            let error = #expect(throws: ConstraintConflictError.self) { try context.save() }
            #expect(error?.conflicts.count == 1)
            let conflict = try #require(error?.conflicts.first)
            #expect(conflict.constraint == ["exchange", "symbol"])
            #expect(conflict.values == [.string("XNYS"), .string("ACME")])
            #expect(conflict.databaseObjectID == storedID)
            #expect(conflict.conflictingObjectIDs == [clash.objectID])
        }
        let reader = try store.context("reader")
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Listing") } == 1)
    }

    @Test("an update that moves an object onto another row's key is a clash", arguments: StoreKind.allCases)
    func updateOntoStoredKey(kind: StoreKind) throws {
        let (store, stored) = try UniquenessFixture.store(kind, others: [["code": .string("BOLT")]])
        let context = try store.context()
        try context.performAndWait {
            let bolt = try context.existingObject(with: stored["BOLT"]!)
            try bolt.setValue(.string("ACME"), forKey: "code")
            let error = #expect(throws: ConstraintConflictError.self) { try context.save() }
            let conflict = try #require(error?.conflicts.first)
            #expect(error?.conflicts.count == 1)
            #expect(conflict.databaseObjectID == stored["ACME"])
            #expect(conflict.conflictingObjectIDs == [stored["BOLT"]!])
        }
        #expect(Set(try UniquenessFixture.companies(in: store).keys) == ["ACME", "BOLT"])
    }
}
