import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// A `-wal` left from another Quarry store (or from a newer state of the same store) beside a
/// store file is refused by every command, naming the log, and neither file changes a byte
/// (issue 34, item 0a: before, `export` printed the other store's rows and `import`,
/// `demo --import-only` and `history --prune-before` wrote into the mixed database).
@Suite("Commands refuse a write-ahead log that belongs to another store")
struct StrayLogCommandTests {
    let directory = TemporaryDirectory()

    /// sha256 of every file in `folder`.
    func fingerprint(_ folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = SHA256.hex(Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
        return result
    }

    /// A demo store of `rows` tickers in its own folder.
    func seeded(_ name: String, rows: Int) throws -> URL {
        let folder = directory.file(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("\(name).sqlite")
        let result = try QuarryExecutable.run(["demo", "--seed-only", "--rows", "\(rows)", "--store", url.path])
        try #require(result.status == 0, "\(result.standardError)")
        return url
    }

    /// Whether the `-wal` beside `url` holds committed frames of page 1 (the saves SQLite would
    /// replay, each carrying the store's tag).
    func logHoldsCommittedSaves(_ url: URL) -> Bool {
        // A log being written (or not there yet) is read again at the next poll.
        guard let log = try? WriteAheadLog.read(path: url.path + "-wal") else { return false }
        return log.committedFrames > 0 && !log.firstPageFrames.isEmpty
    }

    /// Runs an importer on `url` until its `-wal` holds committed saves, then kills it (`kill -9`),
    /// leaving the log with frames not yet in the file.
    ///
    /// The log must hold committed saves when the importer dies, not just bytes: on a loaded
    /// machine the kill could land inside a save's first frames, or just after a checkpoint
    /// restarted the log, leaving a log SQLite replays nothing from (which every command rightly
    /// accepts). Such a kill is tried again, up to five times.
    func killImporterLeavingLog(on url: URL) throws {
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"))
        for _ in 1...5 {
            let importer = try SpawnedProcess(executable, ["demo", "--import-only", "--rate", "2000", "--store", url.path])
            let logHasSaves = waitHoldingThread(seconds: 30) { logHoldsCommittedSaves(url) || !importer.isRunning }
            #expect(logHasSaves, "waited 30 s for the importer's log to hold committed saves")
            #expect(importer.isRunning, "the importer stopped: \(importer.standardError)")
            importer.send(SIGKILL)
            importer.waitForExit()
            if logHoldsCommittedSaves(url) { return }
        }
        Issue.record("five importers killed on \(url.path) left no committed save in its log")
    }

    /// Every command that reads or writes `store`, each with a deadline: one that accepted the
    /// log would run the importer until killed.
    func commands(on store: String, csv: String, model: String) -> [[String]] {
        [["export", store, "--entity", "Ticker"],
         ["stats", store],
         ["model", store],
         ["history", store],
         ["history", store, "--prune-before", "2100-01-01"],
         ["import", store, csv, "--entity", "Sector"],
         ["migrate", store, "--model", model, "--dry-run"],
         ["convert", store, store + ".json"],
         ["demo", "--import-only", "--rate", "50", "--store", store]]
    }

    @Test("another store's -wal beside a store: every command refuses it, naming the log, and no byte of either file changes")
    func anotherStoresLog() throws {
        let a = try seeded("a", rows: 5_000)
        let b = try seeded("b", rows: 3_000)
        try killImporterLeavingLog(on: b)
        let model = directory.file("model.json").path
        let exported = try QuarryExecutable.run(["model", a.path, "--json", "--output", model])
        try #require(exported.status == 0, "\(exported.standardError)")
        // A's own log, if its seed left one, is empty: the stray log takes its place.
        let ownLog = (try? FileManager.default.attributesOfItem(atPath: a.path + "-wal")[.size] as? NSNumber)?.intValue
        try #require(ownLog == nil || ownLog == 0, "the seed left a log of \(ownLog ?? 0) bytes beside A")
        if ownLog != nil { try FileManager.default.removeItem(atPath: a.path + "-wal") }
        try FileManager.default.copyItem(atPath: b.path + "-wal", toPath: a.path + "-wal")
        let csv = try QuarryExecutable.write("name\nExtra\n", to: directory.file("rows.csv"))
        let folder = a.deletingLastPathComponent()
        let before = try fingerprint(folder)
        #expect(before.keys.contains("a.sqlite-wal"))
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"))
        for arguments in commands(on: a.path, csv: csv.path, model: model) {
            let process = try SpawnedProcess(executable, arguments)
            let ended = waitHoldingThread(seconds: 30) { !process.isRunning }
            if !ended { process.send(SIGKILL) }
            let status = process.waitForExit()
            #expect(ended, "quarry \(arguments.joined(separator: " ")) still ran after 30 s: it accepted the log")
            #expect(status != 0, "quarry \(arguments.joined(separator: " ")) exited 0: \(process.standardOutput.prefix(300))")
            #expect(process.standardError.contains("\(a.path)-wal") && process.standardError.contains("does not belong"),
                    "quarry \(arguments.joined(separator: " ")): \(process.standardError)")
            #expect(try fingerprint(folder) == before, "quarry \(arguments.joined(separator: " ")) changed a file")
        }
        // With the stray log moved away, the store is whole and its own.
        try FileManager.default.removeItem(atPath: a.path + "-wal")
        let stats = try QuarryExecutable.run(["stats", a.path])
        #expect(stats.status == 0, "\(stats.standardError)")
        #expect(stats.standardOutput.contains("5000") || stats.standardOutput.contains("5,000"), "\(stats.standardOutput)")
    }
}
