import Foundation
import Quarry
import QuarryTestSupport
import Testing

/// What every command does alike: an existing output file is refused (untouched) unless
/// `--force`, a path that is not a file is refused naming it, `--format` and a file's extension
/// must agree, `-` is standard input or output, and a value starting with `-` gets the real
/// reason instead of ArgumentParser's "Missing value".
@Suite("Command-line manners")
struct CommandLineMannersTests {
    let directory = TemporaryDirectory()

    /// A demo store of a few tickers.
    private func store() throws -> String {
        let store = directory.file("manners.sqlite").path
        let seeded = try QuarryExecutable.run(["demo", "--seed-only", "--rows", "12", "--store", store])
        #expect(seeded.status == 0, "\(seeded.standardError)")
        return store
    }

    /// The content and modification time of `url`.
    private func state(_ url: URL) throws -> (Data, Date?) {
        (try Data(contentsOf: url), try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }

    @Test("export -o onto an existing file fails without touching it; --force replaces it")
    func exportRefusesAnExistingFileUnlessForced() throws {
        let store = try store()
        let existing = try QuarryExecutable.write("keep me\n", to: directory.file("existing.csv"))
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: existing.path)
        let before = try state(existing)
        let refused = try QuarryExecutable.run(["export", store, "--entity", "Ticker", "-o", existing.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("\(existing.path): already exists; it was left as it is (--force replaces it)"), "\(refused.standardError)")
        let after = try state(existing)
        #expect(after.0 == before.0)
        #expect(after.1 == before.1)
        let forced = try QuarryExecutable.run(["export", store, "--entity", "Ticker", "-o", existing.path, "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        let text = String(decoding: try Data(contentsOf: existing), as: UTF8.self)
        #expect(text.hasPrefix("symbol") || text.contains("symbol"), "\(text)")
        #expect(text.split(separator: "\r\n").count == 13)
    }

    @Test("export -o onto a folder is refused, naming it; a symbolic link to nothing too")
    func exportRefusesWhatIsNotAFile() throws {
        let store = try store()
        let folder = directory.file("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try QuarryExecutable.run(["export", store, "--entity", "Ticker", "-o", folder.path, "--force"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(folder.path): it is a directory"), "\(result.standardError)")
        let dangling = directory.file("dangling.csv")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: directory.file("nowhere.csv").path)
        let link = try QuarryExecutable.run(["export", store, "--entity", "Ticker", "-o", dangling.path])
        #expect(link.status == 1)
        #expect(link.standardError.contains("a symbolic link to a missing file"), "\(link.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("nowhere.csv").path))
    }

    @Test("export -o - writes standard output")
    func exportToStandardOutput() throws {
        let store = try store()
        let result = try QuarryExecutable.run(["export", store, "--entity", "Ticker", "--columns", "symbol", "-o", "-"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("symbol"), "\(result.standardOutput)")
    }

    @Test("--format against the extension of the file is refused, on export and import; without --format the extension decides")
    func formatAndExtensionMustAgree() throws {
        let store = try store()
        let out = directory.file("out.csv")
        let export = try QuarryExecutable.run(["export", store, "--entity", "Ticker", "--format", "json", "-o", out.path])
        #expect(export.status == 64)
        #expect(export.standardError.contains("--format json does not match -o \(out.path)"), "\(export.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let json = directory.file("out.json")
        #expect(try QuarryExecutable.run(["export", store, "--entity", "Ticker", "-o", json.path]).status == 0)
        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) is [Any])
        // An extension no format claims takes --format.
        let text = directory.file("out.txt")
        #expect(try QuarryExecutable.run(["export", store, "--entity", "Ticker", "--format", "jsonl", "-o", text.path]).status == 0)
        let csv = try QuarryExecutable.write("symbol\nZZZ\n", to: directory.file("in.csv"))
        let imported = try QuarryExecutable.run(["import", store, csv.path, "--entity", "Ticker", "--format", "jsonl"])
        #expect(imported.status == 64)
        #expect(imported.standardError.contains("--format jsonl does not match FILE \(csv.path)"), "\(imported.standardError)")
    }

    @Test("import - reads standard input")
    func importFromStandardInput() throws {
        let model = try QuarryExecutable.write("""
            {"entities": [{"name": "Note", "attributes": [{"name": "text", "type": "String"}]}]}
            """, to: directory.file("notes.json"))
        let store = directory.file("notes.sqlite")
        let result = try QuarryExecutable.run(["import", store.path, "-", "--entity", "Note", "--model", model.path],
                                              input: "text\nfirst\nsecond\n")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("imported 2 Note objects from <stdin>"), "\(result.standardOutput)")
        let bad = try QuarryExecutable.run(["import", store.path, "-", "--entity", "Note", "--format", "jsonl"], input: "{\"text\": 5}\n")
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("<stdin>:1:"), "\(bad.standardError)")
    }

    @Test("a negative number gets the real reason, not 'Missing value'", arguments: [
        (["demo", "--rows", "-5"], "--rows must be 0 or more (got -5)"),
        (["demo", "--rate", "-1"], "--rate must be at least 1 (got -1)"),
        (["browse", "x.sqlite", "--batch-size", "-2"], "--batch-size must be at least 1 (got -2)"),
    ])
    func negativeNumbers(arguments: [String], expected: String) throws {
        let result = try QuarryExecutable.run(arguments)
        #expect(result.status == 64)
        #expect(result.standardError.contains(expected), "\(result.standardError)")
        #expect(!result.standardError.contains("Missing value"), "\(result.standardError)")
    }

    @Test("a string value starting with '-' is named, with the spelling that passes it")
    func dashValueIsExplained() throws {
        let result = try QuarryExecutable.run(["export", "x.sqlite", "--entity", "Ticker", "--columns", "-symbol"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--columns got no value: -symbol starts with '-' and was read as an option; write --columns=-symbol"),
                "\(result.standardError)")
    }

    @Test("model --json --output refuses an existing file unless --force")
    func modelOutputNeedsForce() throws {
        let model = try QuarryExecutable.write("""
            {"entities": [{"name": "Note", "attributes": [{"name": "text", "type": "String"}]}]}
            """, to: directory.file("m.json"))
        let existing = try QuarryExecutable.write("old", to: directory.file("out.json"))
        let refused = try QuarryExecutable.run(["model", model.path, "--json", "--output", existing.path])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("already exists; it was left as it is (--force replaces it)"), "\(refused.standardError)")
        #expect(try String(contentsOf: existing, encoding: .utf8) == "old")
        let forced = try QuarryExecutable.run(["model", model.path, "--json", "--output", existing.path, "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try String(contentsOf: existing, encoding: .utf8).contains("Note"))
    }

    @Test("model - reads the model from standard input, and names it so in errors")
    func modelFromStandardInput() throws {
        let result = try QuarryExecutable.run(["model", "-"], input: """
            {"entities": [{"name": "Note", "attributes": [{"name": "text", "type": "String"}]}]}
            """)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("model: <stdin>"), "\(result.standardOutput)")
        let bad = try QuarryExecutable.run(["model", "-"], input: "{\"entities\": [\n")
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("<stdin>:2:1:"), "\(bad.standardError)")
    }

    @Test("model --json --output - writes standard output")
    func modelToStandardOutput() throws {
        let model = try QuarryExecutable.write("""
            {"entities": [{"name": "Note", "attributes": [{"name": "text", "type": "String"}]}]}
            """, to: directory.file("m.json"))
        let result = try QuarryExecutable.run(["model", model.path, "--json", "--output", "-"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"Note\""), "\(result.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/-"))
    }
}

/// `create` and `convert` onto an existing file: refused, untouched, unless `--force`, which
/// replaces a regular file (never a folder) with the new store in one rename.
@Suite("create and convert --force")
struct StoreForceTests {
    let directory = TemporaryDirectory()

    private func model() throws -> URL {
        try QuarryExecutable.write("""
            {"entities": [{"name": "Note", "attributes": [{"name": "text", "type": "String"}]}]}
            """, to: directory.file("notes.json"))
    }

    private func isSQLite(_ url: URL) throws -> Bool {
        try Data(contentsOf: url).prefix(15) == Data("SQLite format 3".utf8)
    }

    @Test("create onto a file needs --force; --force replaces it with a store")
    func createForce() throws {
        let target = try QuarryExecutable.write("precious", to: directory.file("taken.sqlite"))
        let refused = try QuarryExecutable.run(["create", target.path, "--model", try model().path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("already exists; it was left as it is (--force replaces a file)"), "\(refused.standardError)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "precious")
        let forced = try QuarryExecutable.run(["create", target.path, "--model", try model().path, "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try isSQLite(target))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).allSatisfy { !$0.hasSuffix(".partial") })
    }

    @Test("create --force never replaces a folder")
    func createForceRefusesAFolder() throws {
        let folder = directory.file("folder.sqlite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try QuarryExecutable.run(["create", folder.path, "--model", try model().path, "--force"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("a directory is there; --force replaces a regular file only"), "\(result.standardError)")
        #expect(FileKind(path: folder.path).kind == .directory)
    }

    @Test("convert onto a file needs --force; --force replaces it with the SQLite store")
    func convertForce() throws {
        let source = directory.file("source.sqlite")
        #expect(try QuarryExecutable.run(["create", source.path, "--model", try model().path]).status == 0)
        let target = try QuarryExecutable.write("precious", to: directory.file("copy.sqlite"))
        let refused = try QuarryExecutable.run(["convert", source.path, target.path])
        #expect(refused.status == 1)
        #expect(try String(contentsOf: target, encoding: .utf8) == "precious")
        let forced = try QuarryExecutable.run(["convert", source.path, target.path, "--force"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try isSQLite(target))
        let itself = try QuarryExecutable.run(["convert", source.path, source.path, "--force"])
        #expect(itself.status == 1)
        #expect(itself.standardError.contains("is the store being converted"), "\(itself.standardError)")
    }
}
