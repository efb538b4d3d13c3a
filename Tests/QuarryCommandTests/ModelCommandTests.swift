import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// `quarry model MODEL_OR_STORE [--json | --xcode]`.
struct ModelCommandTests {
    let directory = TemporaryDirectory()

    func jsonModel(_ definition: ModelDefinition = TestModels.everyFeatureDefinition()) throws -> URL {
        try QuarryExecutable.write(definition.jsonText(), to: directory.file("Model.json"))
    }

    /// A store of `TestModels.tickers()`, created and closed (no `-wal`, no `-shm`).
    func store() throws -> URL {
        let url = directory.file("tickers.sqlite")
        _ = try SQLiteStore(url: url, model: TestModels.tickers())
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        return url
    }

    func sha256(_ url: URL) throws -> String {
        SHA256.hex(Array(try #require(FileManager.default.contents(atPath: url.path))))
    }

    @Test func modelJSONPrintsTheJSONFormatWhichLoadsBackEqual() throws {
        let model = try jsonModel()
        let result = try QuarryExecutable.run(["model", model.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let loaded = try ManagedObjectModel(ModelDefinition(jsonText: result.standardOutput, path: "stdout"))
        #expect(loaded == (try TestModels.everyFeature()))
    }

    @Test func modelJSONConvertsAnXcodeModel() throws {
        let folder = directory.file("Tickers.xcdatamodel")
        try QuarryExecutable.write(TestModels.tickers().definition.xcodeContentsXML(), to: folder.appendingPathComponent("contents"))
        let output = directory.file("out.json")
        let result = try QuarryExecutable.run(["model", folder.path, "--json", "--output", output.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("wrote \(output.path)"))
        #expect(try ManagedObjectModel.load(jsonAt: output) == TestModels.tickers())
    }

    @Test func modelXcodeWritesAFolderTheXcodeLoaderReadsBackEqual() throws {
        let output = directory.file("Every.xcdatamodel")
        let result = try QuarryExecutable.run(["model", try jsonModel().path, "--xcode", "--output", output.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        let loaded = try ManagedObjectModel.load(xcodeModelAt: output)
        #expect(loaded == (try TestModels.everyFeature()))
        #expect(loaded.warnings.isEmpty)
        let contents = try String(contentsOf: output.appendingPathComponent("contents"), encoding: .utf8)
        #expect(contents.contains("<model type=\"com.apple.IDECoreDataModeler.DataModel\""))
    }

    @Test func modelXcodeSaysWhatXcodesFormatCannotHold() throws {
        let definition = ModelDefinition(entities: [
            EntityDefinition(name: "Blob", attributes: [AttributeDescription(name: "bytes", type: .binary, defaultValue: .data(Data([1])))]),
        ])
        let output = directory.file("Blob.xcdatamodel")
        let result = try QuarryExecutable.run(["model", try jsonModel(definition).path, "--xcode", "--output", output.path])
        #expect(result.status == 0)
        #expect(result.standardError.contains("warning[xcode.export-loss]: the Binary default of 'Blob.bytes'"))
    }

    @Test(arguments: [["--xcode"], ["--xcode", "--output", "Wrong.folder"], ["--output", "x.json"], ["--json", "--xcode"]])
    func modelRefusesMismatchedOutputOptions(options: [String]) throws {
        let result = try QuarryExecutable.run(["model", try jsonModel().path] + options.map {
            $0.contains(".") ? directory.file($0).path : $0
        })
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("Usage: quarry model "))
    }

    @Test(arguments: ["--json", "--xcode"])
    func modelNeverOverwritesAnExistingOutput(format: String) throws {
        let output = directory.file(format == "--json" ? "taken.json" : "Taken.xcdatamodel")
        try Data("precious".utf8).write(to: output)
        let result = try QuarryExecutable.run(["model", try jsonModel().path, format, "--output", output.path])
        #expect(result.status == 64)
        #expect(result.standardError.contains("already exists"))
        #expect(FileManager.default.contents(atPath: output.path) == Data("precious".utf8))
    }

    @Test func modelDescribesEntitiesPropertiesConstraintsIndexesAndWarnings() throws {
        let result = try QuarryExecutable.run(["model", try jsonModel().path])
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.standardOutput
        #expect(text.contains("entities: 5"))
        #expect(text.contains("\nThing  abstract\n  sub-entities: Gadget, Item\n"))
        #expect(text.contains("\nGadget  (parent Thing)  renamed from Widget\n  inherits 1 property from Thing\n"))
        #expect(text.contains("    code                  String         required  indexed  min 1  max 8  regex [A-Z]{1,3}(<&>|\"')?\\d*"))
        #expect(text.contains("    defaultInteger16      Integer 16     required  default -7"))
        #expect(text.contains("    scratch               String         optional  transient"))
        #expect(text.contains("    defaultString         String         required  default 'a \"quoted\" <tag> & 'more'\\ttab\\nline'"))
        #expect(!text.contains("^J") && !text.contains("^I"))
        #expect(text.contains("    title                 String         optional  renamed from name"))
        #expect(text.contains("    parts    -> Part   to-many ordered  optional  inverse Part.item  delete Cascade  min 1  max 5  renamed from pieces"))
        #expect(text.contains("    owner    -> Owner  to-one  required  inverse Owner.items  delete No Action"))
        #expect(text.contains("    related  -> Item   to-many  optional  no inverse  delete Nullify"))
        #expect(text.contains("  unique: code\n  unique: title, bounded\n"))
        #expect(text.contains("  index byBounded: bounded\n  index byCodeAndTitle: code, title\n"))
        #expect(text.hasSuffix("warnings: none\n"))
    }

    @Test func modelDescriptionListsTheLoadersWarnings() throws {
        let model = try QuarryExecutable.write(QuarryExecutable.xcodeModelWithAWarning, to: directory.file("Notes.xcdatamodel/contents"))
        let result = try QuarryExecutable.run(["model", directory.file("Notes.xcdatamodel").path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("warnings: 1\n  warning[xcode.ignored-element]: \(model.path):5: ignored <userInfo>"))
    }

    @Test func modelOnAStorePrintsItsRecordedModelWithoutChangingTheFile() throws {
        let store = try store()
        let before = try sha256(store)
        let described = try QuarryExecutable.run(["model", store.path])
        #expect(described.status == 0, "\(described.standardError)")
        #expect(described.standardOutput.hasPrefix("model: \(store.path) (the model recorded in the store)\n"))
        #expect(described.standardOutput.contains("\nTicker\n"))
        let converted = try QuarryExecutable.run(["model", store.path, "--json"])
        #expect(converted.status == 0, "\(converted.standardError)")
        #expect(try ManagedObjectModel(ModelDefinition(jsonText: converted.standardOutput, path: "stdout")) == TestModels.tickers())
        #expect(try sha256(store) == before)
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: store.path + "-shm"))
    }

    @Test func modelOnAnSQLiteFileQuarryDidNotMakeDescribesItsSchemaAndChangesNothing() throws {
        let file = directory.file("other.sqlite")
        _ = try TmuxHarness.run(["sqlite3", file.path, "CREATE TABLE t (x); INSERT INTO t VALUES (1);"])
        let before = try sha256(file)
        let result = try QuarryExecutable.run(["model", file.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\(file.path) (SQLite database; model from the tables' schema)"))
        #expect(result.standardOutput.contains("x  Integer 64"))
        #expect(try sha256(file) == before)
        #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
    }

    @Test func modelOnAFileThatIsNotSQLiteNamesItAndChangesNothing() throws {
        let file = try QuarryExecutable.write("not a database at all, just text\n", to: directory.file("notes.sqlite"))
        let before = try sha256(file)
        let result = try QuarryExecutable.run(["model", file.path])
        #expect(result.status != 0)
        #expect(result.standardError.contains(file.path))
        #expect(try sha256(file) == before)
    }

    @Test func everyCommandThatLoadsAModelShowsItsWarningsOnStandardError() throws {
        try QuarryExecutable.write(QuarryExecutable.xcodeModelWithAWarning, to: directory.file("Notes.xcdatamodel/contents"))
        let model = directory.file("Notes.xcdatamodel").path
        let store = directory.file("notes.sqlite").path
        let runs = [
            try QuarryExecutable.run(["create", store, "--model", model]),
            try QuarryExecutable.run(["model", model, "--json"]),
            try QuarryExecutable.run(["model", model, "--xcode", "--output", directory.file("Copy.xcdatamodel").path]),
            // Without a terminal the browser stops after loading the model.
            try QuarryExecutable.run(["browse", store, "--model", model]),
        ]
        for result in runs {
            #expect(result.standardError.contains("quarry: warning[xcode.ignored-element]: "), "\(result.standardError)")
            #expect(result.standardError.contains("ignored <userInfo>"))
        }
    }
}
