import ArgumentParser

/// The text printed for a usage error a subcommand finds while running.
enum SubcommandUsage {
    /// "Error: …", the subcommand's usage line and where to find its help, as ArgumentParser
    /// prints for an error found while parsing the subcommand's arguments.
    static func message(for error: ValidationError, in command: any ParsableCommand.Type) -> String {
        let name = command.configuration.commandName ?? "\(command)"
        var usage = command.usageString()
        if !usage.hasPrefix("quarry ") { usage = "quarry " + usage }
        return """
            Error: \(error.message)
            Usage: \(usage)
              See 'quarry \(name) --help' for more information.

            """
    }
}
