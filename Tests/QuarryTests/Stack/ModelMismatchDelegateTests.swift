import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Persistent stack: the delegate told of a store made with another model")
struct ModelMismatchDelegateTests {
    /// The tickers model with one more attribute on `Tag`: a store made with
    /// `TestModels.tickers()` differs from it in `Tag` only.
    static func changedModel() throws -> ManagedObjectModel {
        var definition = TestModels.tickerDefinition()
        definition.entities[definition.entities.firstIndex { $0.name == "Tag" }!].attributes.append(AttributeDescription(name: "colour", type: .string))
        return try ManagedObjectModel(definition)
    }

    /// A store of `type` at `url` made with `TestModels.tickers()` holding one ticker, closed again.
    static func makeOldStore(at url: URL, type: PersistentStack.StoreType = .sqlite) throws {
        let store: any PersistentStore = type == .json ? try JSONStore(url: url, model: TestModels.tickers())
                                                       : try SQLiteStore(url: url, model: TestModels.tickers())
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store))
        try context.performAndWait { let t = try context.insert(Ticker.self); t.symbol = "OLD"; try context.save() }
    }

    /// Options for a stack at `url` of `type` whose delegate answers `decision` and records what it was told.
    static func options(_ url: URL, type: PersistentStack.StoreType = .sqlite, deciding decision: PersistentStack.ModelMismatchDecision,
                        told: MismatchesTold) -> PersistentStack.Options {
        var options = PersistentStack.Options()
        options.storeURL = url
        options.storeType = type
        options.watchesRemoteChanges = false
        options.onModelMismatch = { mismatch in told.record(mismatch); return decision }
        return options
    }

    static func tickers(in stack: PersistentStack) throws -> [String] {
        let context = stack.importerContext()
        return try context.performAndWait { try context.objects(of: Ticker.self).map(\.symbol) }
    }

    @Test(".migrate (the default's choice) migrates the store and keeps its objects, even with automatic migration off")
    func migrate() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("old.sqlite")
        try Self.makeOldStore(at: url)
        let told = MismatchesTold()
        var options = Self.options(url, deciding: .migrate, told: told)
        options.automaticLightweightMigration = false
        let model = try Self.changedModel()
        let stack = try PersistentStack(model: model, options: options)
        #expect(told.all == [PersistentStack.ModelMismatch(storeURL: url, storeType: .sqlite, entities: ["Tag"])])
        #expect(try Self.tickers(in: stack) == ["OLD"])
        #expect(try SQLiteStore.readMetadata(url: url).modelVersionHash == model.versionHash)
    }

    @Test(".refuse throws modelMismatch and leaves the store as it was, even with automatic migration on")
    func refuse() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("old.sqlite")
        try Self.makeOldStore(at: url)
        let told = MismatchesTold()
        let options = Self.options(url, deciding: .refuse, told: told)
        #expect(options.automaticLightweightMigration)
        #expect(throws: StoreError.modelMismatch(path: url.path, entities: ["Tag"])) {
            try PersistentStack(model: try Self.changedModel(), options: options)
        }
        #expect(told.all.map(\.entities) == [["Tag"]])
        #expect(try SQLiteStore.readMetadata(url: url).modelVersionHash == TestModels.tickers().versionHash)
        let reopened = try PersistentStack(model: TestModels.tickers(), storeURL: url)
        #expect(try Self.tickers(in: reopened) == ["OLD"])
    }

    @Test(".replace deletes the store (and its -wal and -shm) and opens a new empty one with the stack's model")
    func replace() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("old.sqlite")
        try Self.makeOldStore(at: url)
        let told = MismatchesTold()
        let model = try Self.changedModel()
        let stack = try PersistentStack(model: model, options: Self.options(url, deciding: .replace, told: told))
        #expect(told.all.count == 1)
        #expect(try Self.tickers(in: stack).isEmpty)
        #expect(try SQLiteStore.readMetadata(url: url).modelVersionHash == model.versionHash)
    }

    @Test("a JSON store can be replaced; it cannot migrate, so .migrate refuses it")
    func json() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("old.jsonstore")
        try Self.makeOldStore(at: url, type: .json)
        let told = MismatchesTold()
        let model = try Self.changedModel()
        #expect(throws: StoreError.self) {
            try PersistentStack(model: model, options: Self.options(url, type: .json, deciding: .migrate, told: told))
        }
        #expect(told.all.map(\.storeType) == [.json])
        let stack = try PersistentStack(model: model, options: Self.options(url, type: .json, deciding: .replace, told: told))
        #expect(told.all.count == 2)
        #expect(try Self.tickers(in: stack).isEmpty)
        #expect(try JSONStore(url: url, model: model).model.versionHash == model.versionHash)
    }

    @Test("the delegate is not asked about a new store, nor about one made with the stack's model")
    func notAskedWhenMatchingOrNew() throws {
        let directory = TemporaryDirectory()
        let told = MismatchesTold()
        for type in [PersistentStack.StoreType.sqlite, .json] {
            let url = directory.file("new-\(type)")
            let options = Self.options(url, type: type, deciding: .replace, told: told)
            let created = try PersistentStack(model: TestModels.tickers(), options: options)
            let importer = created.importerContext()
            try importer.performAndWait { let t = try importer.insert(Ticker.self); t.symbol = "KEEP"; try importer.save() }
            let reopened = try PersistentStack(model: TestModels.tickers(), options: options)
            #expect(try Self.tickers(in: reopened) == ["KEEP"])
        }
        #expect(told.all.isEmpty)
    }
}

/// What a stack's ``PersistentStack/Options/onModelMismatch`` was told, in order (it may be
/// called on any thread).
final class MismatchesTold: Sendable {
    private let told = Mutex<[PersistentStack.ModelMismatch]>([])
    var all: [PersistentStack.ModelMismatch] { told.withLock { $0 } }
    func record(_ mismatch: PersistentStack.ModelMismatch) { told.withLock { $0.append(mismatch) } }
}
