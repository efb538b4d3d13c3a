import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Persistent stack: a model found by name")
struct ModelByNameTests {
    @Test("a named model is looked for as .json, then .xcdatamodeld, then .xcdatamodel, then compiled (refused)")
    func searchOrder() throws {
        let folder = ModelFolderFixture()
        try folder.json("Shop", entity: "FromJSON")
        try folder.xcodeBundle("Shop", entity: "FromBundle")
        try folder.xcodeModel("Shop", entity: "FromModel")
        try folder.compiled("Shop", ext: "momd")
        try folder.compiled("Shop", ext: "mom")
        func loaded() throws -> [String] {
            try PersistentStack.loadModel(named: "Shop", in: folder.url).entities.map(\.name)
        }
        #expect(try loaded() == ["FromJSON"])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Shop.json"))
        #expect(try loaded() == ["FromBundle"])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Shop.xcdatamodeld"))
        #expect(try loaded() == ["FromModel"])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Shop.xcdatamodel"))
        #expect(throws: ModelError.compiledModelUnsupported(path: folder.url.appendingPathComponent("Shop.momd").path)) { try loaded() }
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Shop.momd"))
        #expect(throws: ModelError.compiledModelUnsupported(path: folder.url.appendingPathComponent("Shop.mom").path)) { try loaded() }
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Shop.mom"))
        #expect(throws: ModelError.modelNotFound(folder: folder.url.path,
                                                 tried: ["Shop.json", "Shop.xcdatamodeld", "Shop.xcdatamodel", "Shop.momd", "Shop.mom"])) { try loaded() }
    }

    @Test("a stack set up by model name loads the first model in the search order")
    func stackByName() throws {
        let folder = ModelFolderFixture()
        try folder.json("Shop", entity: "FromJSON")
        try folder.xcodeBundle("Shop", entity: "FromBundle")
        try folder.xcodeModel("Other", entity: "Unrelated")
        var options = PersistentStack.Options()
        options.storeURL = folder.url.appendingPathComponent("shop.sqlite")
        let stack = try PersistentStack(modelNamed: "Shop", in: folder.url, options: options)
        #expect(stack.model.entities.map(\.name) == ["FromJSON"])
        #expect(stack.storeURL == options.storeURL)
    }

    @Test("the errors name the folder and every file tried, or the compiled model that cannot load yet")
    func errorText() throws {
        let folder = ModelFolderFixture()
        let missing = #expect(throws: ModelError.self) { try PersistentStack.loadModel(named: "Shop", in: folder.url) }
        let notFound = try #require(missing).description
        #expect(notFound.contains(folder.url.path))
        #expect(notFound.contains("Shop.json, Shop.xcdatamodeld, Shop.xcdatamodel, Shop.momd, Shop.mom"))

        try folder.compiled("Shop", ext: "momd")
        let refused = #expect(throws: ModelError.self) { try PersistentStack(modelNamed: "Shop", in: folder.url) }
        let compiled = try #require(refused).description
        #expect(compiled.contains(folder.url.appendingPathComponent("Shop.momd").path))
        #expect(compiled.contains("compiled Core Data models (.momd, .mom) are not supported yet"))
        // A compiled model given by URL is refused the same way.
        #expect(throws: ModelError.compiledModelUnsupported(path: folder.url.appendingPathComponent("Shop.momd").path)) {
            try PersistentStack.loadModel(at: folder.url.appendingPathComponent("Shop.momd"))
        }
    }
}
