import ArgumentParser
import Foundation
import Quarry
import QuarryTUI

/// The `quarry` command line: a Core Data-style object graph over SQLite, and its browser.
@main
struct QuarryCommand: AsyncParsableCommand {
    /// Every subcommand, in the order `quarry --help` lists them.
    static let subcommands: [any ParsableCommand.Type] = [
        DemoCommand.self,
        BrowseCommand.self,
        CreateCommand.self,
        ModelCommand.self,
        MigrateCommand.self,
        ExportCommand.self,
        ImportCommand.self,
        ConvertCommand.self,
        UpdateCommand.self,
        DeleteCommand.self,
        StatsCommand.self,
        HistoryCommand.self,
        KeysCommand.self,
    ]

    static let configuration = CommandConfiguration(
        commandName: "quarry",
        abstract: "Create, inspect and browse Quarry object stores.",
        version: QuarryVersion.string,
        subcommands: subcommands,
        defaultSubcommand: nil
    )

    /// Parses and runs a subcommand, as ArgumentParser's `main` does, except that a usage error
    /// a subcommand throws while running (`ValidationError`) is printed with that subcommand's
    /// usage, not the root's `quarry <subcommand>`.
    ///
    /// Messages echo names from model files, stores and the command line: their control
    /// characters are escaped, so a crafted file cannot drive the terminal; a message of
    /// several lines keeps its line breaks (``ConsoleText``).
    static func main() async {
        var command: any ParsableCommand
        do {
            command = try await asyncParseAsRoot(nil)
        } catch {
            // A value starting with '-' taken for an option: said as such (ParseErrorWording).
            if let replaced = ParseErrorWording.replacing(fullMessage(for: error), arguments: Array(CommandLine.arguments.dropFirst())) {
                FileHandle.standardError.write(Data((replaced + "\n").utf8))
                exit(withError: ExitCode(exitCode(for: error).rawValue))
            }
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            let escaped = ValidationError(ConsoleText.escapedLines(error.message))
            FileHandle.standardError.write(Data(SubcommandUsage.message(for: escaped, in: type(of: command)).utf8))
            exit(withError: ExitCode.validationFailure)
        } catch where isArgumentParserError(error) {
            // --help, --version and exit codes: ArgumentParser prints (or not) as it should.
            exit(withError: error)
        } catch {
            exit(withError: EscapedError(message: ConsoleText.escapedLines("\(error)")))
        }
    }

    /// Whether `error` is one of ArgumentParser's own (`ExitCode`, `CleanExit`, the help
    /// request its built-in help command throws), which must reach `exit(withError:)` as is.
    private static func isArgumentParserError(_ error: any Error) -> Bool {
        error is ExitCode || error is CleanExit || String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
    }
}

/// An error whose message had its control characters escaped (line breaks kept).
struct EscapedError: Error, CustomStringConvertible {
    /// The escaped message.
    var message: String
    var description: String { message }
}
