import Foundation
import Quarry
import QuarryTestSupport
import Testing

/// `quarry browse NEW.sqlite --model M` creates the store (it used to fail with "no model was
/// given" although one was); `--read-only` never creates one.
struct BrowseCreatesStoreTests {
    let directory = TemporaryDirectory()

    func jsonModel() throws -> URL {
        try QuarryExecutable.write(TestModels.tickers().definition.jsonText(), to: directory.file("Tickers.json"))
    }

    @Test(.enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
    func browseWithAModelCreatesAMissingStoreAndOpensIt() async throws {
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"))
        let store = directory.file("new.sqlite")
        let tmux = TmuxHarness(width: 100, height: 20)
        defer { tmux.shutDown() }
        try tmux.start("\(executable.path) browse \(store.path) --model \(try jsonModel().path) --entity Ticker")
        let message = try await tmux.waitForRow { $0.contains("created a new, empty store for 9 entities") }
        #expect(message != nil, "\((try? tmux.screen()) ?? [])")
        #expect(try tmux.screen()[0].contains("new.sqlite · Ticker"))
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
        #expect(try SQLiteStore.readMetadata(url: store).model == TestModels.tickers())
    }

    @Test(arguments: ["missing", "empty"])
    func browseWithAModelOnANewStoreGetsAsFarAsTheTerminalAndCreatesNothingWithoutOne(kind: String) throws {
        let store = directory.file("\(kind).sqlite")
        if kind == "empty" { try Data().write(to: store) }
        let result = try QuarryExecutable.run(["browse", store.path, "--model", try jsonModel().path])
        #expect(!result.standardError.contains("no model was given"), "\(result.standardError)")
        #expect(result.standardError.contains("the browser needs a terminal"))
        #expect(result.status == 2)
        // Nothing is created for a browser that cannot open.
        #expect(FileManager.default.contents(atPath: store.path) == (kind == "empty" ? Data() : nil))
    }

    @Test(arguments: ["missing", "empty"])
    func browseReadOnlyNeverCreatesAStore(kind: String) throws {
        let store = directory.file("\(kind).sqlite")
        if kind == "empty" { try Data().write(to: store) }
        let result = try QuarryExecutable.run(["browse", store.path, "--model", try jsonModel().path, "--read-only"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--read-only never creates a store"))
        #expect(FileManager.default.contents(atPath: store.path) == (kind == "empty" ? Data() : nil))
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
    }

    @Test func browseWithoutAModelSaysHowToCreateAStore() throws {
        let result = try QuarryExecutable.run(["browse", directory.file("none.sqlite").path])
        #expect(result.status == 64)
        #expect(result.standardError.contains("no such file (give --model to create a new store there)"))
    }
}
