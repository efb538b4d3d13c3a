import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Persistent stack: a model found by name")
struct ModelByNameTests {
    @Test("a named model is looked for as .json, then .xcdatamodeld, .xcdatamodel, .momd and .mom")
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
        #expect(try loaded() == ["FromMomd"])
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Shop.momd"))
        #expect(try loaded() == ["FromMom"])
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

    @Test("the errors name the folder and every file tried; a compiled model loads by name or by URL")
    func errorText() throws {
        let folder = ModelFolderFixture()
        let missing = #expect(throws: ModelError.self) { try PersistentStack.loadModel(named: "Shop", in: folder.url) }
        let notFound = try #require(missing).description
        #expect(notFound.contains(folder.url.path))
        #expect(notFound.contains("Shop.json, Shop.xcdatamodeld, Shop.xcdatamodel, Shop.momd, Shop.mom"))

        try folder.compiled("Shop", ext: "momd")
        #expect(try PersistentStack(modelNamed: "Shop", in: folder.url).model.entities.map(\.name) == ["FromMomd"])
        #expect(try PersistentStack.loadModel(at: folder.url.appendingPathComponent("Shop.momd")).entities.map(\.name) == ["FromMomd"])
        let history = try ModelVersionHistory.load(compiledBundleAt: folder.url.appendingPathComponent("Shop.momd"))
        #expect(history.versions.map(\.name) == ["Shop", "Shop 2"] && history.versions[history.currentIndex].name == "Shop 2")
        #expect(history.versions[0].model.entities.map(\.name) == ["Older"])
    }

    @Test("a compiled model that is not one is refused naming the file", arguments: ["garbage", "truncated", "no-version-info", "fifo"])
    func badCompiledModels(kind: String) throws {
        let folder = ModelFolderFixture()
        let archive = try ModelArchiveFixture.archive([.init(name: "Item", attributes: [.init(name: "name", code: 700)])])
        var target = folder.url.appendingPathComponent("Bad.mom")
        switch kind {
        case "garbage": try Data("not a model at all".utf8).write(to: target)
        case "truncated": try archive.prefix(archive.count / 2).write(to: target)
        case "no-version-info":
            target = folder.url.appendingPathComponent("Bad.momd")
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try archive.write(to: target.appendingPathComponent("A.mom"))
            try archive.write(to: target.appendingPathComponent("B.mom"))
        default:
            #expect(mkfifo(target.path, 0o600) == 0)
        }
        let error = #expect(throws: ModelError.self) { try PersistentStack.loadModel(at: target) }
        let text = try #require(error).description
        #expect(text.contains(target.path), "\(text)")
    }
}
