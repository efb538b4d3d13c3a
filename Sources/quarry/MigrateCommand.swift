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
            nothing. The migration is one transaction: interrupted, the store keeps its old model. \
            With a .xcdatamodeld bundle, a store of any of its versions migrates through the \
            versions in between when that keeps more of its data.
            """
    )

    @Argument(help: "The store file (a Quarry SQLite store).")
    var store: String

    @Option(name: .long, help: "The model to migrate to (.json, .xcdatamodel or .xcdatamodeld).")
    var model: String

    @Flag(name: .long, help: "Print the plan and change nothing.")
    var dryRun = false

    @Flag(name: .shortAndLong, help: "Migrate without asking.")
    var yes = false

    func validate() throws {
        if PostgreSQLStoreOpening.isURL(store) {
            throw ValidationError("\(PostgreSQLStoreOpening.shown(store)): migrating a PostgreSQL store is not supported yet; " +
                                  "export its objects, make a new store with the new model and import them")
        }
        guard FileManager.default.fileExists(atPath: store) else { throw ValidationError("\(store): no such file") }
        if dryRun && yes { throw ValidationError("--dry-run and --yes exclude each other") }
    }

    func run() throws {
        try StoreOpening.refuseWriting(store)
        let url = URL(fileURLWithPath: store)
        let target = try ModelLoading.load(modelAt: model)
        let versions = try MigrationConsole.versions(forModelAt: model)
        guard let plan = try SQLiteStore.migrationPlan(url: url, to: target, versions: versions) else {
            print("\(store): already has this model; nothing to migrate")
            return
        }
        MigrationConsole.show(plan)
        if dryRun {
            print("dry run: nothing was changed")
            return
        }
        guard yes || MigrationConsole.confirm("Migrate \(store)?") else {
            FileHandle.standardError.write(Data("quarry: not migrated; \(store) is unchanged\n".utf8))
            throw ExitCode(1)
        }
        try MigrationConsole.migrate(url, to: target, versions: versions)
        print("migrated \(store)")
    }
}
