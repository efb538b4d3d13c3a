import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Persistent stack: set-up from a folder, a name or a model URL, with a completion callback")
struct PersistentStackSetUpTests {
    @Test("set-up from every model in a folder, merged, calls back once on the main queue with the stack")
    func fromFolder() async throws {
        let folder = ModelFolderFixture()
        try folder.json("A", entity: "Alpha")
        try folder.xcodeModel("B", entity: "Beta")
        try folder.xcodeBundle("C", entity: "Gamma")
        var options = PersistentStack.Options()
        options.storeURL = folder.url.appendingPathComponent("all.sqlite")
        let done = try await SetUpCompletion.awaiting("setUp(modelsIn:)'s completion") { [options] completion in
            PersistentStack.setUp(modelsIn: folder.url, options: options, completion: completion)
        }
        #expect(done.onMainQueue && done.calls == 1)
        let stack = try done.stack()
        #expect(stack.model.entities.map(\.name).sorted() == ["Alpha", "Beta", "Gamma"])
        #expect(stack.storeURL == options.storeURL)
    }

    @Test("set-up from one named model calls back once on the main queue with the stack")
    func fromName() async throws {
        let folder = ModelFolderFixture()
        try folder.json("Shop", entity: "Item")
        try folder.json("Other", entity: "Unrelated")
        var options = PersistentStack.Options()
        options.storeURL = folder.url.appendingPathComponent("shop.sqlite")
        let done = try await SetUpCompletion.awaiting("setUp(modelNamed:in:)'s completion") { [options] completion in
            PersistentStack.setUp(modelNamed: "Shop", in: folder.url, options: options, completion: completion)
        }
        #expect(done.onMainQueue && done.calls == 1)
        let stack = try done.stack()
        #expect(stack.model.entities.map(\.name) == ["Item"])
        #expect(stack.storeURL == options.storeURL)
    }

    @Test("set-up from a model URL and a store URL calls back once on the main queue with the stack")
    func fromModelURL() async throws {
        let folder = ModelFolderFixture()
        try folder.xcodeBundle("Shop", entity: "Item")
        let store = folder.url.appendingPathComponent("shop.jsonstore")
        let done = try await SetUpCompletion.awaiting("setUp(modelURL:storeURL:)'s completion") { completion in
            PersistentStack.setUp(modelURL: folder.url.appendingPathComponent("Shop.xcdatamodeld"), storeURL: store,
                                  storeType: .json, completion: completion)
        }
        #expect(done.onMainQueue && done.calls == 1)
        let stack = try done.stack()
        #expect(stack.model.entities.map(\.name) == ["Item"])
        #expect(stack.storeURL == store)
        #expect(stack.writerCoordinator.store is JSONStore)
    }

    @Test("two models in a folder defining one entity are refused naming the entity and both files")
    func duplicateEntity() async throws {
        let folder = ModelFolderFixture()
        try folder.json("A", entity: "Alpha")
        try folder.xcodeModel("B", entity: "Alpha")
        let a = folder.url.appendingPathComponent("A.json").path
        let b = folder.url.appendingPathComponent("B.xcdatamodel").path
        #expect(throws: ModelError.duplicateEntityInFiles(entity: "Alpha", first: a, second: b)) {
            try PersistentStack.mergedModel(in: folder.url)
        }
        let done = try await SetUpCompletion.awaiting("a failed setUp(modelsIn:)'s completion") { completion in
            PersistentStack.setUp(modelsIn: folder.url, completion: completion)
        }
        #expect(done.onMainQueue && done.calls == 1)
        let error = #expect(throws: ModelError.self) { try done.stack() }
        let text = try #require(error).description
        #expect(text.contains("'Alpha'") && text.contains(a) && text.contains(b))
    }

    @Test("each set-up form calls back once on the main queue with its error")
    func errors() async throws {
        let folder = ModelFolderFixture()
        let empty = try await SetUpCompletion.awaiting("setUp(modelsIn:) of an empty folder") { completion in
            PersistentStack.setUp(modelsIn: folder.url, completion: completion)
        }
        #expect(empty.onMainQueue && empty.calls == 1)
        #expect(throws: ModelError.modelNotFound(folder: folder.url.path, tried: ["*.json", "*.xcdatamodeld", "*.xcdatamodel", "*.momd", "*.mom"])) {
            try empty.stack()
        }
        let missing = try await SetUpCompletion.awaiting("setUp(modelNamed:in:) of a missing model") { completion in
            PersistentStack.setUp(modelNamed: "Shop", in: folder.url, completion: completion)
        }
        #expect(missing.onMainQueue && missing.calls == 1)
        #expect(throws: ModelError.self) { try missing.stack() }
        try folder.json("Shop", entity: "Item")
        let notADatabase = folder.url.appendingPathComponent("notes.sqlite")
        try Data("not a database at all, definitely not".utf8).write(to: notADatabase)
        let badStore = try await SetUpCompletion.awaiting("setUp(modelURL:storeURL:) onto a file that is not a store") { completion in
            PersistentStack.setUp(modelURL: folder.url.appendingPathComponent("Shop.json"), storeURL: notADatabase, completion: completion)
        }
        #expect(badStore.onMainQueue && badStore.calls == 1)
        #expect(throws: StoreError.notADatabase(path: notADatabase.path)) { try badStore.stack() }
    }
}
