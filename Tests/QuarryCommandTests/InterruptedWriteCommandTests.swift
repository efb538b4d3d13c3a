import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// A command killed half-way leaves nothing a rerun trips over (issue 34, item 0e): `convert`
/// builds beside its destination, and `import` marks each chunk it saves.
@Suite("Interrupted convert and import: the rerun works and nothing is duplicated")
struct InterruptedWriteCommandTests {
    let directory = TemporaryDirectory()

    @Test("convert killed half-way leaves nothing at the destination, and the rerun converts")
    func convertKilled() throws {
        let source = directory.file("tickers.sqlite")
        let seeded = try QuarryExecutable.run(["demo", "--seed-only", "--rows", "60000", "--store", source.path])
        try #require(seeded.status == 0, "\(seeded.standardError)")
        let destination = directory.file("tickers.json")
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"))
        let convert = try SpawnedProcess(executable, ["convert", source.path, destination.path])
        // Killed once it has started writing (its hidden partial store exists). The look holds
        // its thread: an async poll can wait behind other tests until the convert has ended.
        let started = waitHoldingThread(seconds: 60) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []
            return names.contains { $0.hasPrefix(".tickers.json.") && $0.hasSuffix(".partial") } || !convert.isRunning
        }
        #expect(started, "waited 60 s for convert to start writing")
        try #require(convert.isRunning, "convert ended before it could be interrupted: \(convert.standardError)")
        convert.send(SIGKILL)
        convert.waitForExit()
        #expect(!FileManager.default.fileExists(atPath: destination.path), "an interrupted convert left a store at the destination")
        let rerun = try QuarryExecutable.run(["convert", source.path, destination.path])
        #expect(rerun.status == 0, "\(rerun.standardError)")
        #expect(rerun.standardOutput.contains("objects"), "\(rerun.standardOutput)")
    }

    @Test("import of a file imported whole is refused with its counts; --again tries it once more")
    func importTwice() throws {
        let store = directory.file("tickers.sqlite")
        let seeded = try QuarryExecutable.run(["demo", "--seed-only", "--rows", "10", "--store", store.path])
        try #require(seeded.status == 0, "\(seeded.standardError)")
        let csv = try QuarryExecutable.write("name\nAlpha\nBeta\nGamma\n", to: directory.file("sectors.csv"))
        let first = try QuarryExecutable.run(["import", store.path, csv.path, "--entity", "Sector"])
        #expect(first.status == 0, "\(first.standardError)")
        let second = try QuarryExecutable.run(["import", store.path, csv.path, "--entity", "Sector"])
        #expect(second.status != 0)
        #expect(second.standardError.contains("already imported into Sector (all 3 row(s), in 1 chunk(s)"), "\(second.standardError)")
        let again = try QuarryExecutable.run(["import", store.path, csv.path, "--entity", "Sector", "--again"])
        // Sector names are unique here, so the second copy fails on them: but it was tried, not refused as imported.
        #expect(!again.standardError.contains("already imported"), "\(again.standardError)")
        #expect(again.standardError.contains("Sector"), "\(again.standardError)")
    }
}

/// `quarry stats` on a JSON store folder (issue 34, item 15: it was refused although browse,
/// export and convert accept one).
@Suite("stats: a JSON store folder")
struct StatsJSONStoreCommandTests {
    @Test("stats counts a JSON store folder's objects and lists its files")
    func statsOfAFolder() throws {
        let directory = TemporaryDirectory()
        let store = directory.file("tickers.sqlite")
        try #require(try QuarryExecutable.run(["demo", "--seed-only", "--rows", "12", "--store", store.path]).status == 0)
        let folder = directory.file("tickers.jsonstore")
        let converted = try QuarryExecutable.run(["convert", store.path, folder.path])
        try #require(converted.status == 0, "\(converted.standardError)")
        let result = try QuarryExecutable.run(["stats", folder.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("kind: JSON store folder"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("_Metadata.json"), "\(result.standardOutput)")
        #expect(result.standardOutput.range(of: #"Ticker\s+12"#, options: .regularExpression) != nil, "\(result.standardOutput)")
    }
}
