import Foundation
import Quarry
import QuarryTestSupport
import Testing

/// `quarry create STORE --model MODEL`.
struct CreateCommandTests {
    let directory = TemporaryDirectory()

    func jsonModel() throws -> URL {
        try QuarryExecutable.write(TestModels.tickers().definition.jsonText(), to: directory.file("Tickers.json"))
    }

    @Test func createMakesAnEmptyStoreForTheModelAndSaysWhatItMade() throws {
        let store = directory.file("new.sqlite")
        let result = try QuarryExecutable.run(["create", store.path, "--model", try jsonModel().path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("created \(store.path): 9 entities (Asset, Bond, Person"))
        let opened = try SQLiteStore(url: store, model: nil, options: .init(readOnly: true))
        #expect(opened.model == TestModels.tickers())
        for entity in opened.model.entities where !entity.isAbstract {
            #expect(try opened.count(for: StoreQuery(entity: entity, includesSubentities: false)) == 0)
        }
        // Closed cleanly: no log or shared memory left beside the new store.
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: store.path + "-shm"))
    }

    @Test(arguments: ["Tickers.xcdatamodel", "Tickers.xcdatamodeld", "contents"])
    func createReadsEveryXcodeModelForm(form: String) throws {
        let xml = TestModels.tickers().definition.xcodeContentsXML()
        let model: URL
        switch form {
        case "Tickers.xcdatamodel":
            model = directory.file(form)
            try QuarryExecutable.write(xml, to: model.appendingPathComponent("contents"))
        case "Tickers.xcdatamodeld":
            model = directory.file(form)
            try QuarryExecutable.write(xml, to: model.appendingPathComponent("Tickers.xcdatamodel/contents"))
        default:
            model = try QuarryExecutable.write(xml, to: directory.file("plain/contents"))
        }
        let store = directory.file("\(form).sqlite")
        let result = try QuarryExecutable.run(["create", store.path, "--model", model.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try SQLiteStore.readMetadata(url: store).model == TestModels.tickers())
    }

    @Test(arguments: ["file", "empty file", "folder", "dangling link"])
    func createRefusesAnythingAlreadyAtThePathAndLeavesItUntouched(kind: String) throws {
        let store = directory.file("taken")
        switch kind {
        case "file": try Data("precious".utf8).write(to: store)
        case "empty file": try Data().write(to: store)
        case "folder": try FileManager.default.createDirectory(at: store, withIntermediateDirectories: false)
        default: try FileManager.default.createSymbolicLink(atPath: store.path, withDestinationPath: directory.file("target").path)
        }
        let before = try FileManager.default.attributesOfItem(atPath: store.path)
        let contentsBefore = FileManager.default.contents(atPath: store.path)
        let result = try QuarryExecutable.run(["create", store.path, "--model", try jsonModel().path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("\(store.path): already exists"))
        #expect(result.standardOutput.isEmpty)
        let after = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        #expect(FileManager.default.contents(atPath: store.path) == contentsBefore)
        #expect(!FileManager.default.fileExists(atPath: directory.file("target").path))
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
    }

    @Test func createRefusesAPathWithAnEarlierStoresLogBesideIt() throws {
        let store = directory.file("ghost.sqlite")
        try Data("old log".utf8).write(to: URL(fileURLWithPath: store.path + "-wal"))
        let result = try QuarryExecutable.run(["create", store.path, "--model", try jsonModel().path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("\(store.path)-wal: an earlier store's file is there"))
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test func aModelThatFailsToLoadIsNamedWithItsLineAndNoStoreIsMade() throws {
        let model = try QuarryExecutable.write("{\n  \"entities\": [\n    {\"name\": \"A\", \"attributes\": [{\"name\": \"x\", \"type\": \"Nope\"}]}\n  ]\n}\n",
                                                to: directory.file("bad.json"))
        let store = directory.file("never.sqlite")
        let result = try QuarryExecutable.run(["create", store.path, "--model", model.path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("\(model.path):3:"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test func aTruncatedXcodeModelIsNamedWithItsLineAndNoStoreIsMade() throws {
        let text = QuarryExecutable.xcodeModelWithAWarning
        let model = try QuarryExecutable.write(String(text.prefix(text.count / 2)), to: directory.file("Cut.xcdatamodel/contents"))
        let store = directory.file("never.sqlite")
        let result = try QuarryExecutable.run(["create", store.path, "--model", directory.file("Cut.xcdatamodel").path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("\(model.path):"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test func createRefusesAStoreInAFolderThatDoesNotExist() throws {
        let store = directory.file("missing/new.sqlite")
        let result = try QuarryExecutable.run(["create", store.path, "--model", try jsonModel().path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("\(directory.file("missing").path): no such folder"))
    }

    @Test func createWithoutAModelIsAUsageError() throws {
        let result = try QuarryExecutable.run(["create", directory.file("x.sqlite").path])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--model"))
    }
}
