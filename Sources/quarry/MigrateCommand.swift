import ArgumentParser
import Foundation
import Quarry
import Synchronization

/// `quarry migrate STORE --model MODEL [--dry-run] [--yes]`: shows what migrating a store to a
/// model does, and does it after asking.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a store to a newer model (inferred lightweight migration).",
        discussion: """
            Prints the plan (per entity: added, removed, renamed, in place or copied, rows \
            affected), then asks before migrating; --yes migrates at once, --dry-run changes \
            nothing. The migration is one transaction (on PostgreSQL too, DDL included): interrupted, the store keeps its old model. \
            With a .xcdatamodeld bundle, a store of any of its versions migrates through the \
            versions in between when that keeps more of its data. Progress (rows copied, rate, \
            time left) is shown on standard error; Ctrl-C rolls the migration back (the store \
            keeps its old model) and exits with status 130.
            """
    )

    @Argument(help: "The store: a Quarry SQLite store file or a postgres:// URL with ?schema=.")
    var store: String

    @OptionGroup var modelOption: RequiredModelOption

    @Flag(name: .long, help: "Print the plan and change nothing.")
    var dryRun = false

    @Flag(name: .shortAndLong, help: "Migrate without asking.")
    var yes = false

    @OptionGroup var quietOption: QuietOption

    @OptionGroup var transformers: TransformerMappingOptions

    /// `--model`: the model to migrate to.
    var model: String { modelOption.model }

    func validate() throws {
        if dryRun && yes { throw ValidationError("--dry-run and --yes exclude each other") }
        guard !StoreLocation.isAbsent(store) else { throw ValidationError("\(store): no such file") }
    }

    func run() throws {
        let target = try ModelLoading.load(modelAt: model)
        let versions = try MigrationConsole.versions(forModelAt: model)
        let location = try StoreLocation(store)
        // A URL is only ever shown without its password.
        let shown = location.shown
        let migration: MigrationConsole.Target
        switch location {
        case .postgreSQL(let url):
            migration = .postgreSQL(try PostgreSQLStoreOpening.url(url))
        case .jsonFolder(let path), .sqliteFile(let path), .foreignDatabase(let path):
            try StoreOpening.refuseWriting(location)
            migration = .sqlite(URL(fileURLWithPath: path))
        }
        guard let plan = try MigrationConsole.plan(migration, to: target, versions: versions) else {
            print("\(shown): already has this model; nothing to migrate")
            return
        }
        MigrationConsole.show(plan)
        if dryRun {
            print("dry run: nothing was changed")
            return
        }
        guard yes || MigrationConsole.confirm("Migrate \(shown)?") else {
            FileHandle.standardError.write(Data("quarry: not migrated; \(shown) is unchanged\n".utf8))
            throw ExitCode(1)
        }
        let reporter = ProgressReporter.standardError(command: "migrate", quiet: quietOption.quiet)
        let cancelled = Mutex(false)
        try InterruptWatch.during(onSignal: { cancelled.withLock { $0 = true } }) { watch in
            do {
                try MigrationConsole.migrate(migration, to: target, versions: versions, reporter: reporter,
                                             isCancelled: { cancelled.withLock { $0 } })
            } catch is CancellationError {
                FileHandle.standardError.write(Data("migrate: interrupted; the migration was rolled back: \(shown) keeps its old model, unchanged\n".utf8))
                throw ExitCode(watch.exitCode)
            }
            if watch.caught != nil {
                // The signal came after the last copy: the migration had nothing left to stop.
                FileHandle.standardError.write(Data("migrate: interrupted too late to stop: the migration was complete\n".utf8))
            }
        }
        print("migrated \(shown)")
    }
}
