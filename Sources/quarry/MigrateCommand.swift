import ArgumentParser
import Foundation
import Quarry

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
            versions in between when that keeps more of its data.
            """
    )

    @Argument(help: "The store: a Quarry SQLite store file or a postgres:// URL with ?schema=.")
    var store: String

    @OptionGroup var modelOption: RequiredModelOption

    @Flag(name: .long, help: "Print the plan and change nothing.")
    var dryRun = false

    @Flag(name: .shortAndLong, help: "Migrate without asking.")
    var yes = false

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
        try MigrationConsole.migrate(migration, to: target, versions: versions)
        print("migrated \(shown)")
    }
}
