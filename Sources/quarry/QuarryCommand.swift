import ArgumentParser

/// The `quarry` command line: a Core Data-style object graph over SQLite, and its browser.
@main
struct QuarryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quarry",
        abstract: "Create, inspect and browse Quarry object stores.",
        subcommands: [DemoCommand.self, BrowseCommand.self, StatsCommand.self],
        defaultSubcommand: nil
    )
}
