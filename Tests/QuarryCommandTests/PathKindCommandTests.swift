import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// Paths are checked for what they are before they are opened or replaced (issue 34, items
/// 0b and 0c): a FIFO given as a store is refused instead of blocking every command, and
/// `export -o` writes a FIFO or device in place and follows a symbolic link, never replacing
/// either with a regular file.
@Suite("Commands check what a path is before opening or replacing it")
struct PathKindCommandTests {
    let directory = TemporaryDirectory()

    /// A demo store of 20 tickers.
    func store() throws -> URL {
        let url = directory.file("store.sqlite")
        let result = try QuarryExecutable.run(["demo", "--seed-only", "--rows", "20", "--store", url.path])
        try #require(result.status == 0, "\(result.standardError)")
        return url
    }

    /// Runs `quarry ARGUMENTS` in the background and waits at most 20 s for it to end.
    func runWithDeadline(_ arguments: [String]) async throws -> (status: Int32?, error: String) {
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"))
        let process = try SpawnedProcess(executable, arguments)
        let ended = try await TmuxHarness.poll(timeout: .seconds(120)) { process.isRunning ? nil : true }
        guard ended == true else {
            process.send(SIGKILL)
            process.waitForExit()
            return (nil, process.standardError)
        }
        return (process.waitForExit(), process.standardError)
    }

    @Test("a FIFO given as the store is refused by stats, model, export, migrate --dry-run and browse, naming it; none blocks")
    func fifoAsStore() async throws {
        let fifo = directory.file("pipe.sqlite")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        let model = try QuarryExecutable.write(#"{"entities": [{"name": "Note", "attributes": [{"name": "text", "type": "String"}]}]}"#,
                                               to: directory.file("model.json"))
        for arguments in [["stats", fifo.path], ["model", fifo.path], ["export", fifo.path, "--entity", "Note"],
                          ["migrate", fifo.path, "--model", model.path, "--dry-run"], ["browse", fifo.path]] {
            let (status, error) = try await runWithDeadline(arguments)
            #expect(status != nil, "quarry \(arguments.joined(separator: " ")) blocked on the FIFO")
            #expect(status != 0)
            #expect(error.contains(fifo.path) && error.contains("a FIFO (named pipe)"), "quarry \(arguments.joined(separator: " ")): \(error)")
        }
        #expect(FileKind(path: fifo.path).kind == .fifo)
    }

    @Test("export -o a symbolic link (with --force: its target exists) replaces its target and keeps the link")
    func exportThroughSymbolicLink() throws {
        let url = try store()
        let target = directory.file("target.csv")
        try Data("old".utf8).write(to: target)
        let link = directory.file("link.csv")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        let refused = try QuarryExecutable.run(["export", url.path, "--entity", "Sector", "-o", link.path])
        #expect(refused.status == 1)
        #expect(try String(contentsOf: target, encoding: .utf8) == "old")
        let result = try QuarryExecutable.run(["export", url.path, "--entity", "Sector", "-o", link.path, "--force"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileKind(path: link.path).isSymbolicLink)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("name"))
    }

    @Test("export -o a FIFO writes into it: a reader waiting on it gets every row, and it stays a FIFO")
    func exportIntoFIFO() throws {
        let url = try store()
        let fifo = directory.file("rows.csv")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        let received = directory.file("received.csv")
        // `cat` reads the FIFO until the export closes it.
        let reader = try SpawnedProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "cat '\(fifo.path)' > '\(received.path)'"])
        let result = try QuarryExecutable.run(["export", url.path, "--entity", "Ticker", "--format", "csv", "-o", fifo.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(reader.waitForExit() == 0)
        let lines = try Data(contentsOf: received).split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 21, "\(lines.count) lines")
        #expect(FileKind(path: fifo.path).kind == .fifo)
    }

    @Test("export -o a character device writes to it in place (it stays a device); - is standard output")
    func exportToDeviceAndDash() throws {
        let url = try store()
        let dash = try QuarryExecutable.run(["export", url.path, "--entity", "Sector", "-o", "-"])
        #expect(dash.status == 0, "\(dash.standardError)")
        #expect(dash.standardOutput.hasPrefix("name"))
        #expect(!FileManager.default.fileExists(atPath: "-"))
        let device = directory.file("null")
        // A node like /dev/null of the test's own (making one needs root, as CI has).
        guard mknod(device.path, S_IFCHR | 0o666, dev_t(0x103)) == 0 else {  // major 1, minor 3
            print("skipped: cannot make a device node here (not root)")
            return
        }
        let result = try QuarryExecutable.run(["export", url.path, "--entity", "Sector", "-o", device.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileKind(path: device.path).kind == .characterDevice)
    }

    @Test("stats, export, history and model leave a store, and its folder, as they were")
    func readingCommandsChangeNothing() throws {
        let url = try store()
        let folder = url.deletingLastPathComponent()
        func fingerprint() throws -> [String: String] {
            var result: [String: String] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasPrefix("store.sqlite") {
                result[name] = SHA256.hex(Array(try Data(contentsOf: folder.appendingPathComponent(name))))
            }
            return result
        }
        let before = try fingerprint()
        #expect(before.count == 1)
        for arguments in [["stats", url.path], ["export", url.path, "--entity", "Ticker"], ["history", url.path], ["model", url.path]] {
            let result = try QuarryExecutable.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(try fingerprint() == before, "quarry \(arguments.joined(separator: " ")) changed the store or left files beside it")
        }
    }

    @Test("export -o a directory is refused, naming what it is")
    func exportToDirectory() throws {
        let url = try store()
        let folder = directory.file("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try QuarryExecutable.run(["export", url.path, "--entity", "Sector", "-o", folder.path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("it is a directory"), "\(result.standardError)")
    }
}
