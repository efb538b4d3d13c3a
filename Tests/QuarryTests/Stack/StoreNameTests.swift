import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Persistent stack: the store's name and default location")
struct StoreNameTests {
    let data = ["XDG_DATA_HOME": "/srv/data"]

    @Test("the default location is $XDG_DATA_HOME/quarry/<name>.sqlite (.jsonstore for JSON), ~/.local/share when unset")
    func defaultLocation() {
        #expect(PersistentStack.defaultStoreURL(name: "ticks", type: .sqlite, environment: data).path == "/srv/data/quarry/ticks.sqlite")
        #expect(PersistentStack.defaultStoreURL(name: "ticks", type: .json, environment: data).path == "/srv/data/quarry/ticks.jsonstore")
        let home = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/quarry/ticks.sqlite")
        #expect(PersistentStack.defaultStoreURL(name: "ticks", type: .sqlite, environment: [:]) == home)
        #expect(PersistentStack.defaultStoreURL(name: "ticks", type: .sqlite, environment: ["XDG_DATA_HOME": ""]) == home)
    }

    @Test("a stack's store is <storeName>.sqlite at the default location unless a store URL is set")
    func storeNameLocates() {
        var options = PersistentStack.Options()
        options.storeName = "ticks"
        #expect(options.resolvedStoreURL(environment: data).path == "/srv/data/quarry/ticks.sqlite")
        options.storeType = .json
        #expect(options.resolvedStoreURL(environment: data).path == "/srv/data/quarry/ticks.jsonstore")
        options.storeURL = URL(fileURLWithPath: "/elsewhere/t.jsonstore")
        #expect(options.resolvedStoreURL(environment: data).path == "/elsewhere/t.jsonstore")
    }

    @Test("a stack with only storeName set opens its store at defaultStoreURL(name:)")
    func storeNameEndToEnd() throws {
        let name = "quarry-test-\(UUID().uuidString)"
        let expected = PersistentStack.defaultStoreURL(name: name)
        defer { try? SQLiteStore.removeFiles(at: expected) }
        var options = PersistentStack.Options()
        options.storeName = name
        let stack = try PersistentStack(model: TestModels.tickers(), options: options)
        // Wherever a regression put it, the store does not outlive the test.
        defer { if let url = stack.storeURL { try? SQLiteStore.removeFiles(at: url) } }
        #expect(stack.storeURL == expected)
        #expect(FileManager.default.fileExists(atPath: expected.path))
    }

    @Test("by default the store is named after the executable (quarry when it has no name)")
    func executableName() {
        let process = ProcessInfo.processInfo.processName
        #expect(!process.isEmpty)
        #expect(PersistentStack.Options().storeName == process)
        #expect(PersistentStack.Options().resolvedStoreURL(environment: data).path == "/srv/data/quarry/\(process).sqlite")
        #expect(PersistentStack.executableName(processName: "tickerd", arguments: ["/usr/bin/other"]) == "tickerd")
        #expect(PersistentStack.executableName(processName: "", arguments: ["/usr/local/bin/tickerd", "-v"]) == "tickerd")
        #expect(PersistentStack.executableName(processName: "", arguments: []) == "quarry")
        #expect(PersistentStack.executableName(processName: "", arguments: [""]) == "quarry")
    }

    @Test("a stack set up from a named model stores in <model>.sqlite unless storeName or storeURL is set")
    func modelNameNamesStore() throws {
        #expect(PersistentStack.Options().namingStore(afterModel: "hoge").resolvedStoreURL(environment: data).path
                == "/srv/data/quarry/hoge.sqlite")
        var named = PersistentStack.Options()
        named.storeName = "mine"
        #expect(named.namingStore(afterModel: "hoge").resolvedStoreURL(environment: data).path == "/srv/data/quarry/mine.sqlite")
        var placed = PersistentStack.Options()
        placed.storeURL = URL(fileURLWithPath: "/elsewhere/s.sqlite")
        #expect(placed.namingStore(afterModel: "hoge").resolvedStoreURL(environment: data).path == "/elsewhere/s.sqlite")

        // End to end: PersistentStack(modelNamed:in:) with nothing else set.
        let folder = ModelFolderFixture()
        let model = "quarry-test-\(UUID().uuidString)"
        try folder.json(model, entity: "Item")
        let expected = PersistentStack.defaultStoreURL(name: model)
        defer { try? SQLiteStore.removeFiles(at: expected) }
        var options = PersistentStack.Options()
        let stack = try PersistentStack(modelNamed: model, in: folder.url, options: options)
        defer { if let url = stack.storeURL { try? SQLiteStore.removeFiles(at: url) } }
        #expect(stack.storeURL == expected)
        // An explicit store URL wins over the model's name.
        options.storeURL = folder.url.appendingPathComponent("explicit.sqlite")
        let placedStack = try PersistentStack(modelNamed: model, in: folder.url, options: options)
        #expect(placedStack.storeURL == options.storeURL)
    }
}
