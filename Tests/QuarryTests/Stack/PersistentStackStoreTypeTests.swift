import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Persistent stack: store types, model URL and save()")
struct PersistentStackStoreTypeTests {
    @Test("a .json stack shares one store between main and writer; importer and main saves reach the folder")
    func jsonStack() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("stack.jsonstore")
        let stack = try PersistentStack(model: TestModels.tickers(), storeURL: url, storeType: .json)
        #expect(stack.storeURL == url)
        let main = await MainActor.run { stack.mainContext }
        #expect(stack.writerCoordinator.store === main.coordinator.store, "one JSONStore instance for both coordinators")
        #expect(stack.writerCoordinator.store is JSONStore)
        let importer = stack.importerContext()
        let merged = try await nextMerge(of: stack) {
            try importer.performAndWait {
                let t = try importer.insert(Ticker.self); t.symbol = "ACME"
                try importer.save()
            }
        }
        #expect(merged.inserted.count == 1)
        try await MainActor.run {
            let s = try main.insert(Sector.self); s.name = "Tech"
            try stack.save()
            #expect(!main.hasChanges)
        }
        let reopened = try JSONStore(url: url)
        let contents = try JSONStoreTesting.contents(of: reopened)
        #expect(contents.keys.sorted() == ["Sector.1", "Ticker.1"])
    }

    @Test("the model URL initialiser loads a JSON or an Xcode model; the store type picks the store")
    func modelURL() throws {
        let directory = TemporaryDirectory()
        let fixtures = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        let json = try PersistentStack(modelURL: fixtures.appendingPathComponent("json/Tickers.json"),
                                       storeURL: directory.file("a.jsonstore"), storeType: .json)
        #expect(json.writerCoordinator.store is JSONStore)
        #expect(json.model.entity(named: "Ticker") != nil)
        let xcode = try PersistentStack(modelURL: fixtures.appendingPathComponent("xcode/Tickers.xcdatamodeld"),
                                        storeURL: directory.file("b.sqlite"))
        #expect(xcode.writerCoordinator.store is SQLiteStore)
        let memory = try PersistentStack(modelURL: fixtures.appendingPathComponent("json/Tickers.json"), storeURL: nil, storeType: .inMemory)
        #expect(memory.writerCoordinator.store is InMemoryStore && memory.storeURL == nil)
        #expect(throws: ModelError.self) { try PersistentStack(modelURL: directory.file("model.txt"), storeURL: nil) }
    }

    @Test("the inMemory option is the .inMemory store type")
    func inMemoryAlias() {
        var options = PersistentStack.Options()
        #expect(options.storeType == .sqlite && !options.inMemory)
        options.inMemory = true
        #expect(options.storeType == .inMemory)
        options.inMemory = false
        #expect(options.storeType == .sqlite)
        options.storeType = .json
        options.inMemory = false
        #expect(options.storeType == .json)
    }

    @Test("save() saves the main context to the store; a read-only main context saves nothing")
    func saveMain() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("main.sqlite")
        let stack = try PersistentStack(model: TestModels.tickers(), storeURL: url)
        try await MainActor.run {
            let t = try stack.mainContext.insert(Ticker.self); t.symbol = "ACME"
            try stack.save()
        }
        let reader = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: TestModels.tickers())))
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Ticker") } == 1)
        stack.isMainContextReadOnly = true
        try await MainActor.run {
            let t = try stack.mainContext.insert(Ticker.self); t.symbol = "BOLT"
            try stack.save()
        }
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Ticker") } == 1)
    }

    @Test("a .json stack refuses a folder of other files and never deletes it on destroyAndSetUp")
    func jsonStackRefusesForeignFolder() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("stack.jsonstore")
        let stack = try PersistentStack(model: TestModels.tickers(), storeURL: url, storeType: .json)
        try stack.destroyAndSetUp()
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("_Metadata.json").path))
        let foreign = directory.file("photos")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: false)
        try Data("x".utf8).write(to: foreign.appendingPathComponent("a.txt"))
        #expect(throws: JSONStoreError.notAJSONStore(path: foreign.path)) {
            try PersistentStack(model: TestModels.tickers(), storeURL: foreign, storeType: .json)
        }
        #expect(JSONStoreTesting.fileNames(foreign) == ["a.txt"])
    }
}
