import ArgumentParser

/// `--read-only` and `--write`, for the commands that open a store the user could edit
/// (`browse`): whether the store is opened for reading only, or for editing.
///
/// The commands that only read (`stats`, `export`, `model`, `history` without `--prune-before`)
/// open their store read-only anyway, and those that write (`create`, `import`, `migrate`,
/// `demo`) cannot work read-only: none of them takes these flags.
struct AccessOption: ParsableArguments {
    @Flag(name: .long, help: "Open the store read-only (PRAGMA query_only); editing is disabled.")
    var readOnly = false

    @Flag(name: .long, help: "Open for editing (the default for Quarry stores); refused for SQLite databases and Core Data stores Quarry did not make, which open read-only.")
    var write = false

    /// Refuses both flags at once. Called by the command's own `validate()` (not this group's),
    /// so that `--help` among the arguments still shows the help.
    func checkConsistent() throws {
        if write, readOnly { throw ValidationError("--write and --read-only contradict each other") }
    }
}
