import Foundation
import GRDB
import QuarryTestSupport
import Testing

/// SIGINT (what Ctrl-C sends) while a long command works, without a terminal: the command stops
/// at a save boundary, says what it kept, exits with 130, and the store or file holds exactly
/// that. Each test waits for the command's first progress line (`QUARRY_PROGRESS_INTERVAL=0`:
/// a line per update) before it sends the signal, so the work is under way.
@Suite("Ctrl-C during a long command")
struct InterruptedLongCommandTests {
    let directory = TemporaryDirectory()
    static let everyUpdate = ["QUARRY_PROGRESS_INTERVAL": "0"]

    private func executable() throws -> URL {
        try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first (swift build --build-tests)")
    }

    /// A demo store of `rows` tickers.
    private func demoStore(_ name: String, rows: Int) throws -> URL {
        let store = directory.file(name)
        let seeded = try QuarryExecutable.run(["demo", "--seed-only", "--quiet", "--rows", "\(rows)", "--store", store.path])
        #expect(seeded.status == 0, "\(seeded.standardError)")
        return store
    }

    /// Starts `arguments`, sends SIGINT once standard error shows `progress`, and waits for the end.
    private func interrupt(_ arguments: [String], whenErrorShows progress: String) throws -> (status: Int32, error: String) {
        let process = try SpawnedProcess(try executable(), arguments, environment: Self.everyUpdate)
        // Blocking, not awaiting: the signal goes as soon as the work shows (see BlockingPoll).
        let started = BlockingPoll.until(timeout: .seconds(120)) { process.standardError.contains(progress) ? true : nil }
        #expect(started == true, "no progress shown: \(process.standardError)")
        process.send(SIGINT)
        let status = process.waitForExit()
        return (status, process.standardError)
    }

    /// How many tickers `store` holds.
    private func tickers(in store: URL) throws -> Int? {
        try DatabaseQueue(path: store.path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM Ticker") }
    }

    private func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test("the demo's seed keeps the chunks it reports, and the next demo refuses the partial seed")
    func interruptedSeed() throws {
        let store = directory.file("seed.sqlite")
        let (status, error) = try interrupt(["demo", "--seed-only", "--rows", "2000000", "--store", store.path],
                                                  whenErrorShows: "demo: seeding ")
        #expect(status == 130, "\(error)")
        let line = try #require(error.split(separator: "\n").first { $0.hasPrefix("demo: interrupted; ") }, "\(error)")
        let kept = try #require(Int(line.dropFirst("demo: interrupted; ".count).prefix { $0.isNumber }), "\(line)")
        #expect(line.contains("of 2000000 tickers in") && line.contains("saved chunk"), "\(line)")
        #expect(try tickers(in: store) == kept)
        let again = try QuarryExecutable.run(["demo", "--seed-only", "--store", store.path])
        #expect(again.status != 0)
        #expect(again.standardError.contains("the demo seed was interrupted"), "\(again.standardError)")
    }

    @Test("an export to a file leaves no file (and no partial one beside it)")
    func interruptedExport() throws {
        let store = try demoStore("export.sqlite", rows: 300_000)
        let folder = directory.file("out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("tickers.csv")
        let (status, error) = try interrupt(["export", store.path, "--entity", "Ticker", "-o", out.path], whenErrorShows: "export: ")
        #expect(status == 130, "\(error)")
        #expect(error.contains("export: interrupted; nothing written to \(out.path)"), "\(error)")
        #expect(try files(in: folder).isEmpty)
    }

    @Test("a convert makes nothing at the destination")
    func interruptedConvert() throws {
        let store = try demoStore("convert.sqlite", rows: 60_000)
        let folder = directory.file("converted")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let destination = folder.appendingPathComponent("copy.jsonstore")
        let (status, error) = try interrupt(["convert", store.path, destination.path], whenErrorShows: "convert: reading ")
        #expect(status == 130, "\(error)")
        #expect(error.contains("convert: interrupted; nothing was made at \(destination.path)"), "\(error)")
        #expect(try files(in: folder).isEmpty)
    }
}
