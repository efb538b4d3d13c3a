import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Several stores on one file in one process, next to other processes on the same file.
///
/// Regression: opening a second store on a file (a stack opens two) read the file's header
/// through a `FileHandle`; closing that descriptor dropped every POSIX lock the process held on
/// the database, among them the `SHARED` lock its WAL connections keep. Another process closing
/// its last connection then got the `EXCLUSIVE` lock and deleted `-wal` and `-shm` under the
/// live process: its later saves went into an unlinked log that no other process could see, and
/// its checkpoints wrote pages behind the other processes' backs, which failed with "SQLite
/// error 11: database disk image is malformed" (`quarry demo` next to a running `quarry demo`).
@Suite struct SQLiteStoreMultiProcessTests {
    let dir = TemporaryDirectory()

    #if os(Linux)
    /// Whether this process holds a POSIX lock on the file at `path`, from the `lock:` lines
    /// of `/proc/self/fdinfo/N` for each descriptor open on that file.
    ///
    /// Not from `/proc/locks`: one `read` of it returns at most one page of the listing (the
    /// kernel's `seq_file` fills a page and stops), and the next `read` starts again at a
    /// line number, so while other tests in this process lock and unlock, a line can be
    /// skipped, and a listing longer than a page (other tests, other processes on the
    /// machine) hid this one's lock every time. A descriptor's `fdinfo` lists the locks taken
    /// through it, in one short read, and reading it opens nothing on the database.
    static func processHoldsLock(onFileAt path: String) -> Bool {
        !locksHeld(onFileAt: path).isEmpty
    }

    /// The `lock:` lines of every descriptor of this process open on the file at `path`
    /// ("lock:\t1: POSIX  ADVISORY  READ 11421 fe:00:16343588 1073741826 1073742335").
    static func locksHeld(onFileAt path: String) -> [String] {
        openFiles().filter { $0.target == path }.flatMap { file -> [String] in
            let info = (try? String(contentsOfFile: "/proc/self/fdinfo/\(file.descriptor)", encoding: .utf8)) ?? ""
            return info.split(separator: "\n").filter { $0.hasPrefix("lock:") && $0.contains(" POSIX ") }.map(String.init)
        }
    }

    /// What this process has open on the file at `path`, and the locks taken through those
    /// descriptors: the context of a failed lock expectation.
    static func lockDiagnosis(_ path: String) -> String {
        let open = openFiles().filter { $0.target.hasPrefix(path) }.map { "\($0.descriptor) → \($0.target)" }
        return "open: \(open); locks through them: \(locksHeld(onFileAt: path))"
    }

    @Test func openingMoreStoresOnAFileKeepsTheProcessLocksOnIt() throws {
        let url = dir.file("locks.sqlite")
        let first = try SQLiteStore(url: url, model: TestModels.tickers())
        let make = ChangeMaker(model: first.model)
        try first.insert([make.insert("Sector", ["name": .string("Energy")])])
        #expect(Self.processHoldsLock(onFileAt: url.path), "a WAL connection keeps a SHARED lock on the database; \(Self.lockDiagnosis(url.path))")

        let second = try SQLiteStore(url: url, model: TestModels.tickers())
        #expect(Self.processHoldsLock(onFileAt: url.path), "opening a second store must not drop the first one's locks; \(Self.lockDiagnosis(url.path))")
        _ = try SQLiteStore(url: url, model: nil, options: .init(readOnly: true))
        _ = try SQLiteStore.readMetadata(url: url)
        try second.insert([make.insert("Sector", ["name": .string("Utilities")])])
        #expect(Self.processHoldsLock(onFileAt: url.path), "reopening or reading metadata must not drop the locks either; \(Self.lockDiagnosis(url.path))")
    }
    #endif

    /// This process's open descriptors and what each points at (from `/proc/self/fd`).
    static func openFiles() -> [(descriptor: String, target: String)] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.compactMap { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")).map { (fd, $0) }
        }
    }

    /// The descriptors of this process that point at a deleted `-wal` or `-shm` of `path`.
    static func deletedSidecars(of path: String) -> [String] {
        openFiles().map(\.target).filter { $0.hasPrefix(path + "-") && $0.hasSuffix("(deleted)") }
    }

    static var quarry: URL? { TmuxHarness.builtExecutable(named: "quarry") }

    /// `quarry stats --json`'s count of `entity`.
    static func statsCount(_ quarry: URL, store: URL, entity: String) throws -> Int {
        let (status, output) = try TmuxHarness.run([quarry.path, "stats", "--json", store.path])
        try #require(status == 0, "quarry stats failed: \(output)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let entities = try #require(json["entities"] as? [[String: Any]])
        return try #require(entities.first { $0["name"] as? String == entity }?["count"] as? Int)
    }

    @Test(.enabled(if: quarry != nil, "needs the quarry executable (swift build)"))
    func anotherProcessClosingNeverDeletesTheLogOfALiveStack() throws {
        let quarry = try #require(Self.quarry)
        let url = dir.file("demo.sqlite")
        let seeded = try TmuxHarness.run([quarry.path, "demo", "--seed-only", "--rows", "20", "--store", url.path])
        try #require(seeded.status == 0, "seeding failed: \(seeded.output)")

        // This process: two stores on the file, as a PersistentStack opens them.
        let writer = try SQLiteStore(url: url, model: nil)
        let main = try SQLiteStore(url: url, model: nil)
        let make = ChangeMaker(model: writer.model)
        try writer.insert([make.insert("Ticker", ["symbol": .string("ZQA")])])
        _ = try main.count(for: StoreQuery(entity: try writer.model.requireEntity("Ticker")))
        let before = try Self.statsCount(quarry, store: url, entity: "Ticker")

        // Another process opens the file read-write and closes it (its last connection).
        let reopened = try TmuxHarness.run([quarry.path, "demo", "--seed-only", "--store", url.path])
        try #require(reopened.status == 0, "reopening failed: \(reopened.output)")
        #expect(Self.deletedSidecars(of: url.path).isEmpty, "the other process deleted -wal/-shm under this one")
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))

        // What this process saves next is seen by other processes.
        try writer.insert([make.insert("Ticker", ["symbol": .string("ZQB")])])
        #expect(try Self.statsCount(quarry, store: url, entity: "Ticker") == before + 1)
        #expect(try main.count(for: StoreQuery(entity: try main.model.requireEntity("Ticker"))) == before + 1)
    }
}
