import Foundation
import Quarry
import QuarryTestSupport
import Testing

/// `quarry browse --on-enter` and `--formats` are checked before the screen opens: a bad
/// value is refused naming it, and nothing is created.
struct BrowseHookOptionsTests {
    let directory = TemporaryDirectory()

    /// `quarry browse NEW.sqlite --model M --entity Ticker` with `arguments` (a store it would create).
    private func browse(_ arguments: [String]) throws -> CommandRunner.Result {
        let model = try QuarryExecutable.write(TestModels.tickers().definition.jsonText(), to: directory.file("Tickers.json"))
        let store = directory.file("new.sqlite")
        let result = try QuarryExecutable.run(["browse", store.path, "--model", model.path, "--entity", "Ticker"] + arguments)
        #expect(!FileManager.default.fileExists(atPath: store.path), "nothing is created for a refused command")
        return result
    }

    @Test func anUnknownOnEnterValueIsRefused() throws {
        let result = try browse(["--on-enter", "open"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--on-enter open: expected detail, edit or follow:RELATIONSHIP"), "\(result.standardError)")
    }

    @Test func anUnknownRelationshipToFollowIsNamed() throws {
        let result = try browse(["--on-enter", "follow:sectr"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("Ticker has no relationship 'sectr' (it has quotes, sector, tags)"), "\(result.standardError)")
    }

    @Test func aGoodOnEnterValueGetsAsFarAsTheTerminal() throws {
        let model = try QuarryExecutable.write(TestModels.tickers().definition.jsonText(), to: directory.file("Tickers.json"))
        let result = try QuarryExecutable.run(["browse", directory.file("ok.sqlite").path, "--model", model.path, "--entity", "Ticker",
                                               "--on-enter", "follow:quotes", "--formats", try formats("[Ticker.price]\nnumber = 3\n").path])
        #expect(result.standardError.contains("the browser needs a terminal"), "\(result.standardError)")
        #expect(result.status == 2)
    }

    @Test func aBadFormatsFileIsRefusedNamingTheFileLineAndKey() throws {
        let file = try formats("[Ticker.price]\nnumber = 2\n[Ticker.prize]\nnumber = 1\n")
        let result = try browse(["--formats", file.path])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--formats \(file.path):3: key 'Ticker.prize': Ticker has no column 'prize'"), "\(result.standardError)")
    }

    private func formats(_ text: String) throws -> URL {
        try QuarryExecutable.write(text, to: directory.file("formats.toml"))
    }
}
