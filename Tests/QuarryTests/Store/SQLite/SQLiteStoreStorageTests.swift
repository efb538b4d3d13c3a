import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite struct SQLiteStoreStorageTests {
    let dir = TemporaryDirectory()

    static func everyType() throws -> ManagedObjectModel {
        var b = ModelBuilder()
        b.entity("All") { e in
            // Undefined is transient-only, never stored (XcodeUndefinedAttributeTests).
            for type in AttributeType.allCases where type != .undefined {
                e.attribute(type.rawValue.replacingOccurrences(of: " ", with: "_"), type)
            }
            e.attribute("scratch", .string, transient: true)
        }
        return try b.build()
    }

    @Test func everyAttributeTypeRoundTripsIncludingNull() throws {
        let store = try SQLiteStore(url: dir.file("all.sqlite"), model: Self.everyType())
        let make = ChangeMaker(model: store.model)
        let full: [String: Value] = [
            "Integer_16": .integer(-32768), "Integer_32": .integer(2_000_000_000), "Integer_64": .integer(Int64.min),
            "Decimal": .decimal(Decimal(string: "123456789.000000001")!), "Double": .double(-1.5e-300), "Float": .double(0.25),
            "String": .string("héllo\u{0}wörld 🎉"), "Boolean": .bool(true),
            "Date": .date(Date(timeIntervalSinceReferenceDate: 123.456)), "Binary": .data(Data([0, 1, 2, 255])),
            "UUID": .uuid(UUID()), "URI": .uri(URL(string: "file:///tmp/a%20b")!),
            "Transformable": .json(.object(["a": .array([.number(1.5), .null, .bool(false), .string("x")])])),
        ]
        var withScratch = full
        withScratch["scratch"] = .string("not stored")
        let ids = try store.insert([make.insert("All", withScratch), make.insert("All"), make.insert("All", ["Binary": .data(Data())])])
        let snapshots = try store.snapshots(for: ids)
        let e = make.entity("All")
        for (k, v) in full { #expect(snapshots[ids[0]]?.values[e.attributeIndex(k)!] == v, "\(k)") }
        #expect(snapshots[ids[0]]?.values[e.attributeIndex("scratch")!] == .null)
        #expect(snapshots[ids[0]]?.version == 1)
        #expect(snapshots[ids[1]]?.values == Array(repeating: .null, count: e.attributes.count))
        #expect(snapshots[ids[2]]?.values[e.attributeIndex("Binary")!] == .data(Data()))
        try inspect(dir.file("all.sqlite")) { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM \"All\" WHERE Z_PK = ?", arguments: [ids[0].primaryKey]))
            #expect(row["Boolean"] as Int64? == 1)
            #expect(row["Date"] as Double? == 123.456)
            #expect(row["Decimal"] as String? == "123456789.000000001")
            #expect(row["Transformable"] as String? == "{\"a\":[1.5,null,false,\"x\"]}")
        }
    }

    @Test func subEntitiesShareTheRootTable() throws {
        let store = try SQLiteStore(url: dir.file("t.sqlite"), model: TestModels.tickers())
        let make = ChangeMaker(model: store.model)
        let ids = try store.insert([
            make.insert("Stock", ["code": .string("AAPL"), "exchange": .string("NASDAQ")]),
            make.insert("Bond", ["code": .string("T10"), "coupon": .double(4.25)]),
            make.insert("Stock", ["code": .string("MSFT")]),
        ])
        #expect(ids.map(\.primaryKey) == [1, 2, 3])
        #expect(ids.map(\.entityIndex) == [6, 1, 6])
        try inspect(dir.file("t.sqlite")) { db in
            let entities = try Int.fetchAll(db, sql: "SELECT Z_ENT FROM Asset ORDER BY Z_PK")
            #expect(entities == [6, 1, 6])
        }
        #expect(try store.objectIDs(for: StoreQuery(entity: make.entity("Asset"))) == ids)
        #expect(try store.objectIDs(for: StoreQuery(entity: make.entity("Stock"))) == [ids[0], ids[2]])
        #expect(try store.count(for: StoreQuery(entity: make.entity("Bond"))) == 1)
        #expect(try store.objectIDs(for: StoreQuery(entity: make.entity("Asset"), limit: 1, offset: 1)) == [ids[1]])
        #expect(try store.count(for: StoreQuery(entity: make.entity("Asset"), limit: 2, offset: 2)) == 1)
        let stock = try #require(try store.snapshot(ids[0]))
        #expect(stock.values[make.entity("Stock").attributeIndex("exchange")!] == .string("NASDAQ"))
        #expect(try store.snapshots(for: [ObjectID(entityIndex: 1, primaryKey: 1)]).isEmpty)  // wrong entity
    }

    @Test func toOneAndInverseToManyUseTheForeignKey() throws {
        let store = try SQLiteStore(url: dir.file("t.sqlite"), model: TestModels.tickers())
        let make = ChangeMaker(model: store.model)
        let sector = make.insert("Sector", ["name": .string("Tech")])
        let a = make.insert("Ticker", ["symbol": .string("B")], toOne: ["sector": sector.id])
        let b = make.insert("Ticker", ["symbol": .string("A")], toOne: ["sector": sector.id])
        let ids = try store.insert([sector, a, b])
        let ticker = make.entity("Ticker")
        #expect(try store.snapshot(ids[1])?.toOne[ticker.relationshipIndex("sector")!] == ids[0])
        #expect(try store.relatedIDs(of: ids[0], relationship: make.entity("Sector").relationshipIndex("tickers")!) == [ids[1], ids[2]])
        #expect(try store.relatedIDs(of: ids[1], relationship: ticker.relationshipIndex("sector")!) == [ids[0]])
    }

    @Test func orderedToManyWithInverseUsesAnOrderColumn() throws {
        var b = ModelBuilder()
        b.entity("List") { e in e.toMany("items", destination: "Item", inverse: "list", ordered: true) }
        b.entity("Item") { e in
            e.attribute("title", .string)
            e.toOne("list", destination: "List", inverse: "items")
        }
        let store = try SQLiteStore(url: dir.file("l.sqlite"), model: try b.build())
        let make = ChangeMaker(model: store.model)
        let list = make.insert("List")
        let items = (0..<3).map { make.insert("Item", ["title": .string("\($0)")], toOne: ["list": list.id]) }
        var insertedList = list
        insertedList.toMany = [0: [items[2].id, items[0].id, items[1].id]]
        let ids = try store.insert([insertedList] + items)
        #expect(try store.relatedIDs(of: ids[0], relationship: 0) == [ids[3], ids[1], ids[2]])
        try inspect(dir.file("l.sqlite")) { db in
            let columns = try db.columns(in: "Item").map(\.name)
            #expect(columns.contains("Z_FOK_list"))
        }
        let committed = try #require(try store.snapshot(ids[0]))
        try store.update([make.update(ids[0], from: committed, toMany: ["items": [ids[1], ids[2], ids[3]]])])
        #expect(try store.relatedIDs(of: ids[0], relationship: 0) == [ids[1], ids[2], ids[3]])
    }

    @Test func manyToManyIsStoredOnceAndReadFromBothSides() throws {
        let store = try SQLiteStore(url: dir.file("t.sqlite"), model: TestModels.tickers())
        let make = ChangeMaker(model: store.model)
        let tagA = make.insert("Tag", ["label": .string("a")])
        let tagB = make.insert("Tag", ["label": .string("b")])
        let ticker = make.insert("Ticker", ["symbol": .string("X")], toMany: ["tags": [tagA.id, tagB.id]])
        var a = tagA, b = tagB
        a.toMany = [make.entity("Tag").relationshipIndex("tickers")!: [ticker.id]]
        b.toMany = a.toMany
        let ids = try store.insert([a, b, ticker])
        let tags = make.entity("Ticker").relationshipIndex("tags")!
        let tickers = make.entity("Tag").relationshipIndex("tickers")!
        #expect(Set(try store.relatedIDs(of: ids[2], relationship: tags)) == [ids[0], ids[1]])
        #expect(try store.relatedIDs(of: ids[0], relationship: tickers) == [ids[2]])
        try inspect(dir.file("t.sqlite")) { db in
            let value = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Z_Tag_tickers")
            #expect(value == 2)
        }

        // Remove tag b from the ticker (both sides change, as a context's inverse maintenance does).
        let committedTicker = try #require(try store.snapshot(ids[2]))
        let committedB = try #require(try store.snapshot(ids[1]))
        try store.update([make.update(ids[2], from: committedTicker, toMany: ["tags": [ids[0]]]),
                          make.update(ids[1], from: committedB, toMany: ["tickers": []])])
        #expect(try store.relatedIDs(of: ids[2], relationship: tags) == [ids[0]])
        #expect(try store.relatedIDs(of: ids[1], relationship: tickers) == [])

        // Deleting the ticker removes its join rows.
        var deletion = StoreChangeSet()
        deletion.deletes = [(ids[2], 2)]
        _ = try store.save(deletion) { _ in .fail }
        #expect(try store.relatedIDs(of: ids[0], relationship: tickers) == [])
        try inspect(dir.file("t.sqlite")) { db in
            let value = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Z_Tag_tickers")
            #expect(value == 0)
        }
    }

    @Test func orderedToManyWithoutInverseUsesAJoinTableInOrder() throws {
        let store = try SQLiteStore(url: dir.file("t.sqlite"), model: TestModels.tickers())
        let make = ChangeMaker(model: store.model)
        let tickers = ["C", "A", "B"].map { make.insert("Ticker", ["symbol": .string($0)]) }
        let tickerIDs = try store.insert(tickers)
        let portfolio = try store.insert([make.insert("Portfolio", toMany: ["holdings": [tickerIDs[2], tickerIDs[0], tickerIDs[1]]])])[0]
        let holdings = make.entity("Portfolio").relationshipIndex("holdings")!
        #expect(try store.relatedIDs(of: portfolio, relationship: holdings) == [tickerIDs[2], tickerIDs[0], tickerIDs[1]])
        let committed = try #require(try store.snapshot(portfolio))
        try store.update([make.update(portfolio, from: committed, toMany: ["holdings": [tickerIDs[1], tickerIDs[2]]])])
        #expect(try store.relatedIDs(of: portfolio, relationship: holdings) == [tickerIDs[1], tickerIDs[2]])
        #expect(try store.snapshot(portfolio)?.version == 2)
    }
}
