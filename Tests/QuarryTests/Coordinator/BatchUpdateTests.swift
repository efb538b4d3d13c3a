import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Batch updates: values computed per object from its own attributes, written in one
/// transaction without a context, checked against the model, merged like a save.
@Suite("Batch update")
struct BatchUpdateTests {
    @Test("sets values from each object's own attributes where the predicate holds; the result merges like a save", arguments: StoreKind.allCases)
    func updates(kind: StoreKind) throws {
        let f = try BatchRequestFixture(kind)
        let main = try f.store.context("main")
        let (controller, shown) = try main.performAndWait { () -> (FetchedResultsController, Ticker) in
            let c = try FetchedResultsController(fetchRequest: FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("price")]), context: main)
            try c.performFetch()
            let xom = main.object(with: f.ids["XOM"]!) as! Ticker
            _ = xom.price
            return (c, xom)
        }
        var request = try BatchUpdateRequest(entityName: "Ticker", predicate: ObjectPredicate(format: "sector.name == 'energy'"),
                                             setting: "price = price * 2 + volume, name = lowercase(symbol) + '!', volume = volume - 1")
        request.returnsObjectIDs = true
        let result = try f.writer.execute(request)
        #expect(result.count == 2)
        #expect(result.objectIDs == [f.ids["XOM"]!, f.ids["CVX"]!])
        #expect(Set(result.changes.updated) == [f.ids["XOM"]!, f.ids["CVX"]!] && result.changes.carriesSnapshots)
        #expect(result.changes.changedKeys[f.ids["XOM"]!] == ["price", "name", "volume"])
        #expect(try f.prices() == ["AAPL": 10, "MSFT": 20, "XOM": 67, "CVX": 88], "expressions read the values from before the request")
        if kind != .memory && kind != .json { #expect(result.historyToken != nil, "recorded in persistent history") }

        try main.performAndWait {
            main.merge(fromDidSave: result.changes)
            #expect(shown.price == 67 && shown.name == "xom!" && shown.volume == 6, "the registered object is refreshed")
            #expect(controller.fetchedObjects.map { ($0 as! Ticker).symbol } == ["AAPL", "MSFT", "XOM", "CVX"])
        }
    }

    @Test("an empty selection changes nothing; sub-entities are updated through their parent", arguments: StoreKind.allCases)
    func selections(kind: StoreKind) throws {
        let f = try BatchRequestFixture(kind)
        let none = try f.writer.execute(try BatchUpdateRequest(entityName: "Ticker", predicate: ObjectPredicate(format: "price > 1000"), setting: "price = 0"))
        #expect(none.count == 0 && none.changes.isEmpty)
        let seed = try f.store.context("assets")
        try seed.performAndWait {
            let stock = try seed.insertObject(entityName: "Stock"); stock["code"] = .string("s")
            stock["value"] = .decimal(Decimal(string: "1.10")!)
            let bond = try seed.insertObject(entityName: "Bond"); bond["code"] = .string("b")
            try seed.save()
        }
        let result = try f.writer.execute(try BatchUpdateRequest(entityName: "Asset", setting: "code = uppercase(code), value = coalesce(value, 0) * 3"))
        #expect(result.count == 2)
        let reader = try f.reader()
        try reader.performAndWait {
            let assets = try reader.fetch(FetchRequest(entityName: "Asset", sortDescriptors: [SortKey("code")]))
            #expect(assets.map { $0["code"] as Value } == [.string("B"), .string("S")])
            #expect(assets.map { $0["value"] as Value } == [.decimal(Decimal(0)), .decimal(Decimal(string: "3.30")!)], "decimals stay exact")
        }
    }

    @Test("bad requests are refused before anything is read, naming the key and the reason", arguments: [StoreKind.sqlite])
    func refusedUpFront(kind: StoreKind) throws {
        let f = try BatchRequestFixture(kind)
        func refusal(_ set: String, entity: String = "Ticker") -> String {
            do {
                try f.writer.execute(try BatchUpdateRequest(entityName: entity, setting: set))
                return "accepted"
            } catch { return "\(error)" }
        }
        #expect(refusal("price = 1", entity: "Nope") == "no entity 'Nope' in the model")
        #expect(refusal("price = colour") == "'Ticker.colour' is not an attribute")
        #expect(refusal("sector = nil") == "'Ticker.sector' is a relationship (a batch update sets attributes)")
        #expect(refusal("note = 'x'") == "'Ticker.note' is transient (never stored)")
        #expect(refusal("symbol = price * 2") == "cannot set 'Ticker.symbol' to price * 2: gives a double, 'symbol' holds String")
        #expect(refusal("price = symbol + 1") == "cannot set 'Ticker.price' to symbol + 1: cannot add a string and a integer")
        #expect(refusal("price = uppercase(price)") == "cannot set 'Ticker.price' to uppercase(price): uppercase needs strings, not a double")
        #expect(refusal("price = 1, price = 2").contains("column 12"), "a key set twice is named where it is")
        #expect(refusal("price = price *").contains("column 16"))
        #expect(refusal("price = sqrt(price)").contains("a function (uppercase, lowercase"))
        #expect(try f.prices() == ["AAPL": 10, "MSFT": 20, "XOM": 30, "CVX": 40])
    }

    @Test("a value that breaks the model refuses the whole request, naming the rule and the first objects", arguments: StoreKind.allCases)
    func refusedByValues(kind: StoreKind) throws {
        let f = try BatchRequestFixture(kind)
        func refusal(_ set: String, where format: String? = nil) throws -> BatchRequestError? {
            do {
                try f.writer.execute(try BatchUpdateRequest(entityName: "Ticker", predicate: format.map { try ObjectPredicate(format: $0) }, setting: set))
                return nil
            } catch let error as BatchRequestError { return error }
        }
        let below = try refusal("price = price - 25")
        #expect(below == .invalidValue(entity: "Ticker", key: "price", reason: "value -15 is below the minimum 0", count: 2,
                                       sample: [f.ids["AAPL"]!, f.ids["MSFT"]!].sorted()), "\(String(describing: below))")
        #expect(try refusal("symbol = nil")?.description.contains("'Ticker.symbol' is required (primary key 1); 4 Ticker object(s) (primary key 1, 2, 3, 4) fail on 'symbol'") == true)
        #expect(try refusal("symbol = symbol + 'TOOLONG'")?.description.contains("length") == true)
        #expect(try refusal("volume = volume * 9223372036854775807")?.description.contains("integer overflow") == true)
        #expect(try refusal("volume = volume * 1.5", where: "symbol == 'XOM'")?.description
                    .contains("'Ticker.volume' cannot hold 10.5 (Integer 64)") == true)
        #expect(try refusal("price = price / (volume - 5)")?.description.contains("division by zero") == true)
        #expect(try f.prices() == ["AAPL": 10, "MSFT": 20, "XOM": 30, "CVX": 40], "nothing was written")
        // A uniqueness constraint is the store's to check, in the same transaction.
        #expect(throws: StoreError.self) { try f.writer.execute(try BatchUpdateRequest(entityName: "Sector", setting: "name = 'same'")) }
        let reader = try f.reader()
        #expect(try reader.performAndWait { try reader.count(for: FetchRequest(entityName: "Sector", predicate: ObjectPredicate(format: "name == 'same'"))) } == 0)
    }

    @Test("a write by someone else between the request's read and its write makes it run again from a fresh read", arguments: StoreKind.allCases)
    func retriedAfterConflict(kind: StoreKind) throws {
        let f = try BatchRequestFixture(kind)
        let other = try f.store.context("other")
        let competing = InterleavedStore(base: f.writer.store) {
            try other.performAndWait {
                (other.object(with: f.ids["AAPL"]!) as! Ticker).price = 100
                try other.save()
            }
        }
        let coordinator = StoreCoordinator(store: competing, name: "interleaved")
        let result = try coordinator.execute(try BatchUpdateRequest(entityName: "Ticker", predicate: ObjectPredicate(format: "symbol == 'AAPL'"), setting: "price = price + 1"))
        #expect(result.count == 1)
        #expect(competing.saves == 2, "the first attempt conflicted")
        #expect(try f.prices()["AAPL"] == 101, "the second attempt computed from the other writer's value")
    }
}

/// A store that runs `interleave` once, just before the first save reaches `base`: another
/// writer's commit between a batch request's read and its write.
final class InterleavedStore: PersistentStore, @unchecked Sendable {
    // `interleaved` and `saves` are touched only by the one thread running the test's request.
    let base: PersistentStore
    private let interleave: () throws -> Void
    private var interleaved = false
    private(set) var saves = 0

    init(base: PersistentStore, interleave: @escaping () throws -> Void) {
        self.base = base
        self.interleave = interleave
    }

    var identifier: UUID { base.identifier }
    var model: ManagedObjectModel { base.model }
    var url: URL? { base.url }
    var isReadOnly: Bool { base.isReadOnly }
    func snapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] { try base.snapshots(for: ids) }
    func relatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID] { try base.relatedIDs(of: id, relationship: relationship) }
    func objectIDs(for request: StoreQuery) throws -> [ObjectID] { try base.objectIDs(for: request) }
    func count(for request: StoreQuery) throws -> Int { try base.count(for: request) }
    func keyedIDs(for request: StoreQuery, keyPaths: [String]) throws -> [(id: ObjectID, keys: [Value])] {
        try base.keyedIDs(for: request, keyPaths: keyPaths)
    }
    func save(_ changes: StoreChangeSet, resolve: (MergeConflict) -> ConflictResolution) throws -> StoreSaveResult {
        saves += 1
        if !interleaved {
            interleaved = true
            try interleave()
        }
        return try base.save(changes, resolve: resolve)
    }
}

/// A batch update's assignments applied to objects in a context: ordinary, undoable changes.
@Suite("Batch update applied in a context")
struct BatchUpdateInContextTests {
    @Test("sets the objects' values from their own attributes as pending changes; save writes them, undo takes them back", arguments: StoreKind.allCases)
    func appliesInAContext(kind: StoreKind) throws {
        let f = try BatchRequestFixture(kind)
        let context = try f.store.context("edit")
        try context.performAndWait {
            context.undoManager = ContextUndoManager()
            let xom = try context.existingObject(with: f.ids["XOM"]!)
            let cvx = try context.existingObject(with: f.ids["CVX"]!)
            let request = try BatchUpdateRequest(entityName: "Ticker", setting: "price = volume, volume = price")
            try request.apply(to: [xom, cvx])
            #expect(context.hasChanges && context.updated.count == 2)
            #expect(xom["price"] as Value == .double(7) && xom["volume"] as Value == .integer(30), "each expression reads the value from before")
            try context.save()
        }
        #expect(try f.prices()["XOM"] == 7)
        try context.performAndWait {
            try context.undo()
            try context.save()
        }
        #expect(try f.prices()["XOM"] == 30, "undone and saved")
    }

    @Test("a value a rule refuses, an expression of the wrong kind or an object of another entity changes no object")
    func refusals() throws {
        let f = try BatchRequestFixture(.sqlite)
        let context = try f.store.context("edit")
        try context.performAndWait {
            let xom = try context.existingObject(with: f.ids["XOM"]!)
            let aapl = try context.existingObject(with: f.ids["AAPL"]!)
            #expect(throws: BatchRequestError.self) {
                try BatchUpdateRequest(entityName: "Ticker", setting: "price = 1, symbol = lowercase(symbol)").apply(to: [aapl, xom])
            }
            #expect(!context.hasChanges, "nothing set, not even the valid price")
            #expect(throws: BatchRequestError.self) { try BatchUpdateRequest(entityName: "Ticker", setting: "price = 'x'").apply(to: [xom]) }
            let sector = try #require((xom as! Ticker).sector)
            #expect(throws: BatchRequestError.self) { try BatchUpdateRequest(entityName: "Ticker", setting: "price = 1").apply(to: [xom, sector]) }
            #expect(!context.hasChanges)
        }
    }
}
