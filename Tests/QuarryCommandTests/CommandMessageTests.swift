import Foundation
import Quarry
import QuarryDemo
import QuarryTestSupport
import Testing

/// The built `quarry` binary's messages: usage errors, model errors, refused demo stores.
struct CommandMessageTests {
    let directory = TemporaryDirectory()

    func quarry(_ arguments: String...) throws -> CommandRunner.Result {
        try QuarryExecutable.run(arguments)
    }

    @Test(arguments: [
        (["stats"], "stats"),
        (["stats", "/nonexistent/store.sqlite"], "stats"),
        (["browse", "/nonexistent/store.sqlite"], "browse"),
        (["demo", "--rows", "abc"], "demo"),
        (["demo", "--import-only", "--seed-only"], "demo"),
    ])
    func aUsageErrorPrintsTheSubcommandsUsageNotTheRoots(arguments: [String], subcommand: String) throws {
        let result = try QuarryExecutable.run(arguments)
        #expect(result.status == 64)
        #expect(result.standardError.contains("Usage: quarry \(subcommand) "))
        #expect(!result.standardError.contains("quarry <subcommand>"))
        #expect(result.standardError.contains("See 'quarry \(subcommand) --help'"))
    }

    @Test(arguments: [
        ("price > 'abc'", "at column 9"),
        ("symbol == 5", "at column 11"),
        ("nosuchkey > 1", "nosuchkey"),
    ])
    func aWhereThatDoesNotFitTheEntityIsRefusedBeforeTheScreenOpens(filter: String, expected: String) throws {
        let store = directory.file("where.sqlite").path
        #expect(try quarry("demo", "--seed-only", "--rows", "10", "--store", store).status == 0)
        let result = try quarry("browse", store, "--entity", "Ticker", "--where", filter)
        #expect(result.status == 64)
        #expect(result.standardError.contains("--where: "))
        #expect(result.standardError.contains(expected), "\(result.standardError)")
        #expect(!result.standardError.contains("needs a terminal"))
    }

    @Test func aModelThatFailsToLoadIsNamedInTheError() throws {
        let store = directory.file("demo.sqlite").path
        #expect(try quarry("demo", "--seed-only", "--rows", "10", "--store", store).status == 0)
        let model = directory.file("broken.json")
        try Data("{\"entities\": [".utf8).write(to: model)
        let result = try quarry("browse", store, "--model", model.path)
        #expect(result.status != 0)
        #expect(result.standardError.contains(model.path))
        #expect(!result.standardError.contains("no model was given"))
    }

    @Test func demoRefusesAStoreWhoseSeedWasInterrupted() throws {
        struct Killed: Error {}
        let url = directory.file("partial.sqlite")
        let stack = try PersistentStack(model: DemoModel.make(), storeURL: url)
        #expect(throws: Killed.self) {
            try DemoSeeder(coordinator: stack.writerCoordinator, chunk: 10).seed(rows: 40) { written in
                if written == 10 { throw Killed() }
            }
        }
        let result = try quarry("demo", "--seed-only", "--store", url.path)
        #expect(result.status == 1)
        #expect(result.standardError.contains("the demo seed was interrupted (10 of 40 tickers written)"))
        #expect(!result.standardOutput.contains("reusing"))
    }

    @Test func versionPrintsTheVersionStoresRecord() throws {
        let result = try quarry("--version")
        #expect(result.status == 0)
        #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == QuarryVersion.string)
    }

    @Test func demoHelpDocumentsImportOnly() throws {
        let result = try quarry("demo", "--help")
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("--import-only"))
    }

    @Test(arguments: [
        ([], "SUBCOMMANDS:"),
        (["create", "--help"], "USAGE: quarry create <store> --model <model>"),
        (["model", "--help"], "USAGE: quarry model <model-or-store> [--json] [--xcode] [--output <output>]"),
        (["help", "browse"], "created, new and empty"),
    ])
    func helpIsPrintedAsTheManualWithStatusZero(arguments: [String], expected: String) throws {
        let result = try QuarryExecutable.run(arguments.isEmpty ? ["--help"] : arguments)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains(expected), "\(result.standardOutput)")
        #expect(result.standardError.isEmpty)
    }
}
