import ArgumentParser
import Foundation

/// The `quarry` command line: a Core Data-style object graph over SQLite, and its browser.
@main
struct QuarryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quarry",
        abstract: "Create, inspect and browse Quarry object stores.",
        subcommands: [DemoCommand.self, BrowseCommand.self, StatsCommand.self],
        defaultSubcommand: nil
    )

    /// Parses and runs a subcommand, as ArgumentParser's `main` does, except that a usage error
    /// a subcommand throws while running (`ValidationError`) is printed with that subcommand's
    /// usage, not the root's `quarry <subcommand>`.
    static func main() async {
        var command: any ParsableCommand
        do {
            command = try await asyncParseAsRoot(nil)
        } catch {
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ValidationError {
            FileHandle.standardError.write(Data(SubcommandUsage.message(for: error, in: type(of: command)).utf8))
            exit(withError: ExitCode.validationFailure)
        } catch {
            exit(withError: error)
        }
    }
}
