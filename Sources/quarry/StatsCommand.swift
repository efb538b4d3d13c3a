import ArgumentParser
import Foundation
import Quarry

/// `quarry stats STORE`: entities, counts, file sizes and model hash.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show a store's entities, object counts, file sizes and model hash."
    )

    @Argument(help: "The store: a Quarry SQLite store, a JSON store folder, any SQLite database or a Core Data store, or a postgres:// store URL.")
    var store: String

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    // Checked while parsing, so the usage printed with the error is `quarry stats`'s.
    func validate() throws {
        guard !StoreLocation.isAbsent(store) else {
            throw ValidationError("\(store): no such file")
        }
    }

    func run() throws {
        let location = try StoreLocation(store)
        let opened: any PersistentStore
        var origin: String?
        switch location {
        case .postgreSQL(let url):
            let store = try PostgreSQLStoreOpening.store(url, model: nil, readOnly: true)
            opened = store
            PostgreSQLStoreOpening.reportWarnings(of: store)
            origin = store.foreign.map(PostgreSQLStoreOpening.foreignOrigin)
        case .jsonFolder(let path):
            opened = try JSONStore(url: URL(fileURLWithPath: path), model: nil, readOnly: true)
            origin = "JSON store folder"
        case .sqliteFile(let path):
            opened = try SQLiteStore(url: URL(fileURLWithPath: path), model: nil, options: .init(readOnly: true))
        case .foreignDatabase(let path):
            let foreign = try StoreOpening.foreignDatabase(at: path)
            opened = try SQLiteStore(foreign: foreign)
            origin = "\(foreign.kind.rawValue), read-only; model from \(foreign.modelSource)"
        }
        ModelLoading.reportWarnings(of: opened.model)
        var stats = try StoreStatistics(coordinator: StoreCoordinator(store: opened, name: "stats"))
        stats.origin = origin
        // A URL is shown without its password.
        if location.isPostgreSQL { stats.path = location.shown }
        print(json ? try stats.json() : stats.text())
    }
}

/// What `quarry stats` reports.
struct StoreStatistics: Encodable {
    struct EntityCount: Encodable {
        var name: String
        /// Objects of this entity itself (Core Data's `includesSubentities = false`).
        var count: Int
        /// Objects of this entity and its sub-entities: what `browse` and `export` show.
        var countWithSubentities: Int
        /// Whether the entity has sub-entities (then the text shows both counts, labelled).
        var hasSubentities: Bool
        var versionHash: String
    }

    var path: String
    /// What made a database Quarry did not make, and where its model came from (`nil` for a Quarry store).
    var origin: String?
    var modelHash: String
    var entities: [EntityCount]
    var files: [String: Int64]

    init(coordinator: StoreCoordinator) throws {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "stats")
        let model = coordinator.model
        entities = try context.performAndWait {
            try model.entities.map { e in
                let own = try context.count(ofEntity: e.name, includesSubentities: false)
                let all = e.hasSubentities ? try context.count(ofEntity: e.name, includesSubentities: true) : own
                return EntityCount(name: e.name, count: own, countWithSubentities: all, hasSubentities: e.hasSubentities,
                                   versionHash: e.versionHash)
            }
        }
        modelHash = model.versionHash
        let url = coordinator.store.url
        // A PostgreSQL store's URL (no password) is shown whole.
        path = url.map { $0.isFileURL ? $0.path : $0.absoluteString } ?? "memory"
        var files: [String: Int64] = [:]
        // A PostgreSQL store's URL names no files.
        if let url, coordinator.store is JSONStore {
            // A JSON store folder: its files.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] where !name.hasPrefix(".") {
                if let size = (try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(name).path))?[.size] as? NSNumber {
                    files[name] = size.int64Value
                }
            }
        } else if let url, url.isFileURL {
            for suffix in ["", "-wal", "-shm"] {
                let p = url.path + suffix
                if let size = (try? FileManager.default.attributesOfItem(atPath: p))?[.size] as? NSNumber {
                    files[(p as NSString).lastPathComponent] = size.int64Value
                }
            }
        }
        self.files = files
    }

    func text() -> String {
        var lines = ["store: \(path)"] + (origin.map { ["kind: \($0)"] } ?? []) + ["model hash: \(modelHash)", "entities:"]
        let width = entities.map(\.name.count).max() ?? 0
        for e in entities {
            // An entity with sub-entities has two counts; browse and export show the second.
            let counts = e.hasSubentities ? "\(e.count) own, \(e.countWithSubentities) with sub-entities" : "\(e.count)"
            lines.append("  \(e.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(counts)")
        }
        if !files.isEmpty || path.hasPrefix("/") { lines.append("files:") }
        for (name, size) in files.sorted(by: { $0.key < $1.key }) { lines.append("  \(name)  \(size) bytes") }
        return lines.joined(separator: "\n")
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
