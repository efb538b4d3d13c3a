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
    /// Whether this process holds a POSIX lock on the file at `path` (from `/proc/locks`).
    ///
    /// `/proc/locks` is one snapshot only within one `read`: read in pages, a lock released
    /// elsewhere between two reads (the other tests run in parallel, each SQLite connection
    /// locking and unlocking) shifts the list, so a line may be skipped. It is read here with
    /// one `read` into a buffer larger than the listing; a lock this process holds is in every
    /// listing, and it is still looked for in up to 20 before it counts as absent.
    static func processHoldsLock(onFileAt path: String) throws -> Bool {
        let inode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber).uint64Value
        for _ in 0..<20 {
            let locks = try Self.procLocks()
            // "1: POSIX  ADVISORY  READ 11421 fe:00:16343588 1073741826 1073742335"
            let held = locks.split(separator: "\n").contains { line in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count > 5, fields[1] == "POSIX", Int32(fields[4]) == getpid() else { return false }
                return fields[5].split(separator: ":").last.flatMap { UInt64($0) } == inode
            }
            if held { return true }
        }
        return false
    }

    /// `/proc/locks` read with one `read` of up to 8 MiB (the kernel lists every lock in it
    /// under one hold of its lock tables).
    static func procLocks() throws -> String {
        let fd = open("/proc/locks", O_RDONLY)
        guard fd >= 0 else { throw CocoaError(.fileReadUnknown) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 8 << 20)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { throw CocoaError(.fileReadUnknown) }
        return String(decoding: buffer[..<n], as: UTF8.self)
    }

    /// What this process has open on the file at `path`, and its lines in `/proc/locks`: the
    /// context of a failed lock expectation.
    static func lockDiagnosis(_ path: String) -> String {
        let open = openFiles().filter { $0.target.hasPrefix(path) }.map { "\($0.descriptor) → \($0.target)" }
        let locks = ((try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? "")
            .split(separator: "\n").filter { $0.contains(" \(getpid()) ") }
        return "open: \(open); this process's locks: \(locks)"
    }

    @Test func openingMoreStoresOnAFileKeepsTheProcessLocksOnIt() throws {
        let url = dir.file("locks.sqlite")
        let first = try SQLiteStore(url: url, model: TestModels.tickers())
        let make = ChangeMaker(model: first.model)
        try first.insert([make.insert("Sector", ["name": .string("Energy")])])
        #expect(try Self.processHoldsLock(onFileAt: url.path), "a WAL connection keeps a SHARED lock on the database; \(Self.lockDiagnosis(url.path))")

        let second = try SQLiteStore(url: url, model: TestModels.tickers())
        #expect(try Self.processHoldsLock(onFileAt: url.path), "opening a second store must not drop the first one's locks; \(Self.lockDiagnosis(url.path))")
        _ = try SQLiteStore(url: url, model: nil, options: .init(readOnly: true))
        _ = try SQLiteStore.readMetadata(url: url)
        try second.insert([make.insert("Sector", ["name": .string("Utilities")])])
        #expect(try Self.processHoldsLock(onFileAt: url.path), "reopening or reading metadata must not drop the locks either; \(Self.lockDiagnosis(url.path))")
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
