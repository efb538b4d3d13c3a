import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Objects: uniquing, faults, typed access")
struct ObjectLifecycleTests {
    @Test("one instance per object ID in a context", arguments: StoreKind.allCases)
    func uniquing(kind: StoreKind) throws {
        let store = TestStore(kind)
        let writer = try store.context()
        let id = try writer.performAndWait {
            let s = try writer.insert(Sector.self)
            s.name = "Tech"
            try writer.save()
            return s.objectID
        }
        let reader = try store.context("reader")
        try reader.performAndWait {
            let a = reader.object(with: id)
            let b = reader.object(with: id)
            #expect(a === b)
            let fetched = try reader.objects(of: Sector.self)
            #expect(fetched.count == 1)
            #expect(fetched[0] === a)
            #expect(try reader.existingObject(with: id) === a)
        }
    }

    @Test("a fault loads its row on first access", arguments: StoreKind.allCases)
    func faultLoading(kind: StoreKind) throws {
        let store = TestStore(kind)
        let writer = try store.context()
        let id = try writer.performAndWait {
            let t = try writer.insert(Ticker.self)
            t.symbol = "ACME"
            t.price = 12.5
            t.volume = 42
            try writer.save()
            return t.objectID
        }
        let reader = try store.context("reader")
        reader.performAndWait {
            let t = reader.object(with: id) as! Ticker
            #expect(t.isFault)
            #expect(t.symbol == "ACME")
            #expect(!t.isFault)
            #expect(t.price == 12.5)
            #expect(t.volume == 42)
            #expect(t.active == true, "default value")
        }
    }

    @Test("inserted objects get permanent IDs and a URI at save", arguments: StoreKind.allCases)
    func permanentIDs(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context()
        try context.performAndWait {
            let s = try context.insert(Sector.self)
            s.name = "Energy"
            let temporary = s.objectID
            #expect(temporary.isTemporary)
            try context.save()
            #expect(!s.objectID.isTemporary)
            #expect(context.object(with: s.objectID) === s)
            let uri = context.coordinator.uri(for: s.objectID)
            #expect(uri.absoluteString.hasPrefix("quarry://\(context.coordinator.store.identifier.uuidString)/Sector/"))
            #expect(try context.coordinator.objectID(forURI: uri) == s.objectID)
            #expect(throws: QuarryError.self) { try context.coordinator.objectID(forURI: URL(string: "quarry://x/Sector/1")!) }
        }
    }

    @Test("string-key access checks keys and types")
    func stringKeys() throws {
        let context = try TestStore(.memory).context()
        try context.performAndWait {
            let t = try context.insertObject(entityName: "Ticker")
            try t.setValue(.string("ABC"), forKey: "symbol")
            try t.setValue(.integer(3), forKey: "price")
            #expect(t["price"] == .double(3))
            #expect(throws: QuarryError.unknownKey(entity: "Ticker", key: "nope")) { try t.setValue(.null, forKey: "nope") }
            #expect(throws: QuarryError.self) { try t.setValue(.string("x"), forKey: "volume") }
            #expect(throws: QuarryError.abstractEntity("Asset")) { try context.insertObject(entityName: "Asset") }
            #expect(throws: QuarryError.unknownEntity("Nope")) { try context.insertObject(entityName: "Nope") }
        }
    }

    @Test("changed values, committed values and change flags", arguments: StoreKind.allCases)
    func changeTracking(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        try context.performAndWait {
            let t = try context.insert(Ticker.self)
            t.symbol = "OLD"
            #expect(t.isInserted && t.hasChanges && !t.isUpdated)
            try context.save()
            #expect(!t.hasChanges && !context.hasChanges)
            t.symbol = "NEW"
            #expect(t.isUpdated)
            #expect(t.changedValues() == ["symbol": .string("NEW")])
            #expect(t.committedValues(forKeys: ["symbol"]) == ["symbol": .string("OLD")])
            #expect(context.updated.count == 1)
            context.rollback()
            #expect(t.symbol == "OLD")
            #expect(!context.hasChanges)
        }
    }

    @Test("unchanged objects nobody holds are released by the context")
    func weakRegistration() throws {
        let store = TestStore(.memory)
        let context = try store.context()
        try context.performAndWait {
            for i in 0..<50 {
                let t = try context.insert(Ticker.self)
                t.symbol = "T\(i)"
            }
            try context.save()
            #expect(context.registeredObjectCount == 0)
            let held = try context.objects(of: Ticker.self)
            #expect(context.registeredObjectCount == 50)
            #expect(held.count == 50)
        }
    }

    @Test("entity inheritance: fetching the parent returns sub-entity objects", arguments: StoreKind.allCases)
    func inheritance(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        try context.performAndWait {
            let stock = try context.insertObject(entityName: "Stock")
            stock["code"] = .string("S1")
            stock["exchange"] = .string("NYSE")
            let bond = try context.insertObject(entityName: "Bond")
            bond["code"] = .string("B1")
            bond["coupon"] = .double(2.5)
            bond["value"] = .decimal(Decimal(string: "1000.25")!)
            try context.save()
            #expect(try context.count(ofEntity: "Asset") == 2)
            #expect(try context.count(ofEntity: "Stock") == 1)
            let assets = try context.objects(ofEntity: "Asset")
            #expect(Set(assets.map(\.entity.name)) == ["Stock", "Bond"])
            #expect(assets.first { $0.entity.name == "Bond" }?["value"] == .decimal(Decimal(string: "1000.25")!))
        }
    }
}
