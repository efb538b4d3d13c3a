import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("JSON store: what it refuses")
struct JSONStoreRefusalTests {
    @Test("a folder of other files is refused and left byte for byte untouched, with or without a model")
    func foreignFolder() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("photos")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("not a store".utf8).write(to: url.appendingPathComponent("Ticker.json"))
        try Data([1, 2, 3]).write(to: url.appendingPathComponent("sub/a.bin"))
        let before = JSONStoreTesting.fingerprint(url)
        for model in [TestModels.tickers(), nil] {
            let error = #expect(throws: JSONStoreError.self) { try JSONStore(url: url, model: model) }
            #expect(error == .notAJSONStore(path: url.path))
        }
        // A _Metadata.json of some other program is not a store's either.
        try Data("{\"owner\": \"someone else\"}".utf8).write(to: url.appendingPathComponent("_Metadata.json"))
        let withMetadata = JSONStoreTesting.fingerprint(url)
        #expect(throws: JSONStoreError.notAJSONStore(path: url.path)) { try JSONStore(url: url, model: TestModels.tickers()) }
        #expect(JSONStoreTesting.fingerprint(url) == withMetadata)
        #expect(before.count + 1 == withMetadata.count)
        #expect(JSONStoreTesting.fileNames(directory.url) == ["photos"], "nothing was created beside it")
    }

    @Test("a file is not a store folder; a missing folder needs a model and a writable open")
    func fileAndMissing() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("store.sqlite")
        try Data("SQLite format 3\0".utf8).write(to: file)
        #expect(throws: JSONStoreError.notAFolder(path: file.path)) { try JSONStore(url: file, model: TestModels.tickers()) }
        let missing = directory.file("missing")
        #expect(throws: JSONStoreError.self) { try JSONStore(url: missing) }
        #expect(throws: JSONStoreError.self) { try JSONStore(url: missing, model: TestModels.tickers(), readOnly: true) }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
        // An empty folder becomes a store.
        let empty = directory.file("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        _ = try JSONStore(url: empty, model: TestModels.tickers())
        #expect(JSONStoreTesting.fileNames(empty).contains("_Metadata.json"))
    }

    @Test("a store made with another model is refused naming the entities that differ")
    func otherModel() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("t.jsonstore")
        _ = try JSONStore(url: url, model: TestModels.tickers())
        var definition = TestModels.tickerDefinition()
        definition.entities[definition.entities.firstIndex { $0.name == "Tag" }!].attributes.append(AttributeDescription(name: "colour", type: .string))
        let error = #expect(throws: StoreError.self) { try JSONStore(url: url, model: try ManagedObjectModel(definition)) }
        #expect(error == .modelMismatch(path: url.path, entities: ["Tag"]))
    }

    @Test("a read-only store refuses saves and never writes to its folder")
    func readOnly() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("t.jsonstore")
        try JSONStoreTesting.populateTickers(ObjectContext(concurrencyType: .privateQueue,
                                                           coordinator: StoreCoordinator(store: JSONStore(url: url, model: TestModels.tickers()))))
        let before = JSONStoreTesting.fingerprint(url)
        let store = try JSONStore(url: url, model: nil, readOnly: true)
        #expect(store.isReadOnly)
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store))
        try context.performAndWait {
            #expect(try context.count(ofEntity: "Ticker") == 2)
            let t = try context.insert(Ticker.self); t.symbol = "NEW"
            #expect(throws: StoreError.readOnly(path: url.path)) { try context.save() }
        }
        #expect(JSONStoreTesting.fingerprint(url) == before)
    }
}
