import Foundation
import QuarryTestSupport
import Testing

/// Messages that say what is wrong: a text file or a device given as a model, an empty folder
/// given as a store, a model file's fault named with the file; and `demo --import-only` ended by
/// SIGTERM exits as a shell expects (143).
@Suite("Messages say what is wrong, and where")
struct CommandMessageClarityTests {
    let directory = TemporaryDirectory()

    @Test("a text file given as a model is not called empty; an empty one is")
    func aTextFileIsNotAModel() throws {
        var text = ""
        while text.utf8.count < 200_000 { text += "2026-11-26 12:00:01 INFO request served in 12 ms\n" }
        let log = try QuarryExecutable.write(text, to: directory.file("server.log"))
        let result = try QuarryExecutable.run(["model", log.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(log.path):1:1: not a model file: it starts with '2026-11-26 12:00:01 INFO…'"), "\(result.standardError)")
        #expect(!result.standardError.contains("empty"))
        let empty = try QuarryExecutable.write("", to: directory.file("empty.txt"))
        #expect(try QuarryExecutable.run(["model", empty.path]).standardError.contains("\(empty.path): the file is empty"))
    }

    @Test("a device given as a model is named as one, without a raw NSError")
    func aDeviceIsNotAModel() throws {
        let result = try QuarryExecutable.run(["model", "/dev/null"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("/dev/null: a character device, not a model file"), "\(result.standardError)")
        #expect(!result.standardError.contains("Error Domain"), "\(result.standardError)")
    }

    @Test("an empty folder given as a store is called an empty folder, not a missing JSON store")
    func anEmptyFolderIsNotAStore() throws {
        let folder = directory.file("data")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for arguments in [["export", folder.path, "--entity", "Ticker"], ["browse", folder.path]] {
            let result = try QuarryExecutable.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardError.contains("\(folder.path): an empty folder, not a store"), "\(result.standardError)")
            #expect(!result.standardError.contains("no JSON store here"), "\(result.standardError)")
        }
    }

    @Test("a model file's fault found after reading it names the file and where")
    func modelFaultsNameTheFile() throws {
        let json = try QuarryExecutable.write("""
            {"entities": [{"name": "A", "attributes": [{"name": "x", "type": "String"}],
              "relationships": [{"name": "b", "destination": "C"}]}]}
            """, to: directory.file("dest.json"))
        let result = try QuarryExecutable.run(["model", json.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(json.path):2:30: relationship 'A.b' points to 'C', which is not in the model"),
                "\(result.standardError)")
        let contents = try QuarryExecutable.write("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="A" syncable="YES">
                    <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="C"/>
                </entity>
            </model>
            """, to: directory.file("Dest.xcdatamodel/contents"))
        let xcode = try QuarryExecutable.run(["model", directory.file("Dest.xcdatamodel").path])
        #expect(xcode.status == 1)
        #expect(xcode.standardError.contains("\(contents.path):4: relationship 'A.b' points to 'C'"), "\(xcode.standardError)")
    }

    @Test("demo --import-only ended by SIGTERM prints its totals and exits with 143", .timeLimit(.minutes(2)))
    func importOnlyExitsWith143AfterSIGTERM() async throws {
        let store = directory.file("demo.sqlite").path
        #expect(try QuarryExecutable.run(["demo", "--seed-only", "--rows", "20", "--store", store]).status == 0)
        let quarry = try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first (swift build --build-tests)")
        let importer = try SpawnedProcess(quarry, ["demo", "--import-only", "--rate", "400", "--store", store])
        // Its first save shows that the signal handlers are installed (before them, SIGTERM's
        // default action would end it with 143 too, proving nothing).
        let saved = try await TmuxHarness.poll(timeout: .seconds(120)) {
            importer.standardOutput.contains("save ") || !importer.isRunning ? true : nil
        }
        #expect(saved == true && importer.isRunning, "no save within 30 s: \(importer.standardError)")
        importer.send(SIGTERM)
        let ended = try await TmuxHarness.poll(timeout: .seconds(120)) { importer.isRunning ? nil : true }
        #expect(ended == true, "still running 30 s after SIGTERM")
        guard ended == true else { importer.send(SIGKILL); return }
        #expect(importer.waitForExit() == 128 + SIGTERM, "\(importer.standardError)")
        #expect(importer.standardOutput.contains("saves"), "the totals: \(importer.standardOutput)")
    }
}
