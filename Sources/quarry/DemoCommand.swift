import ArgumentParser
import Foundation
import Quarry

/// `quarry demo`: creates (or reopens) the stock-ticker demo store and seeds it.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Create or reopen the stock-ticker demo store, seed it, and show what it holds.",
        discussion: """
            The store lives at --store PATH, or at $XDG_DATA_HOME/quarry/demo.sqlite \
            (~/.local/share/quarry/demo.sqlite). A store that already holds tickers is reused as it is.
            """
    )

    @Option(name: .long, help: "How many tickers to seed into a new store.")
    var rows = 100_000

    @Option(name: .long, help: "Where to keep the demo store (created if absent, reused if present).")
    var store: String?

    @Flag(name: .long, help: "Create and seed the store, then exit without a user interface.")
    var seedOnly = false

    @Flag(name: .long, help: "Do not start the live importer.")
    var noImport = false

    func validate() throws {
        guard rows >= 0 else { throw ArgumentParser.ValidationError("--rows must be 0 or more (got \(rows))") }
    }

    func run() throws {
        let url = store.map { URL(fileURLWithPath: $0) } ?? PersistentStack.defaultStoreURL(name: "demo")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let model = try DemoModel.make()
        let coordinator = StoreCoordinator(store: try SQLiteStore(url: url, model: model), name: "writer")
        let reader = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "reader")
        let existing = try reader.performAndWait { try reader.count(ofEntity: "Ticker") }
        if existing == 0 && rows > 0 {
            let seconds = try measure { try DemoSeeder(coordinator: coordinator).seed(rows: rows) }
            print("seeded \(rows) tickers into \(url.path) in \(String(format: "%.2f", seconds)) s")
        } else {
            print("reusing \(url.path) (\(existing) tickers)")
        }
        print(try StoreStatistics(coordinator: coordinator).text())
        if !seedOnly {
            print("(the interactive browser arrives with the terminal-browser issue; this build stops after seeding)")
        }
    }

    private func measure(_ body: () throws -> Void) rethrows -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }
}
