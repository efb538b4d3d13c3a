import ArgumentParser
import Foundation
import Quarry

/// `quarry history STORE`: the store's persistent history (each save's token, time, author and
/// counts; with `--json` every change), or `--prune-before` to delete old transactions.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print a store's persistent history, or prune it.",
        discussion: """
            Every save to a Quarry SQLite store appends one history transaction: a token that only \
            grows, the time, the author (the saving context's name or the process), and each \
            object inserted, updated or deleted. Without --prune-before the store is only read.
            """
    )

    @Argument(help: "The store file (a Quarry SQLite store), or a postgres:// store URL.")
    var store: String

    // Unconditional: a negative number is read as the value (and refused by validate() with
    // the reason), not as an option.
    @Option(name: .long, parsing: .unconditional, help: "Only transactions after this token.")
    var since: Int64?

    @Option(name: .long, parsing: .unconditional, help: "At most this many transactions (the oldest first).")
    var limit: Int?

    @Flag(name: .long, help: "Print JSON, with every change of every transaction.")
    var json = false

    @Option(name: .customLong("prune-before"),
            help: "Delete the transactions before a token (a number) or a date (yyyy-MM-dd[THH:mm:ss], local time, or ISO 8601 with a zone).")
    var pruneBefore: String?

    func validate() throws {
        guard !StoreLocation.isAbsent(store) else {
            throw ValidationError("\(store): no such file")
        }
        if let limit, limit < 1 { throw ValidationError("--limit must be a positive number; got \(limit)") }
        if let since, since < 0 { throw ValidationError("--since must be a token, 0 or more; got \(since)") }
        if pruneBefore != nil, since != nil || limit != nil || json {
            throw ValidationError("--prune-before cannot be combined with --since, --limit or --json")
        }
        if let pruneBefore, HistoryPruneTarget(pruneBefore) == nil {
            throw ValidationError("--prune-before \(pruneBefore): neither a token nor a date (yyyy-MM-dd, yyyy-MM-ddTHH:mm:ss, ISO 8601)")
        }
    }

    func run() throws {
        // A look that writes nothing is enough to refuse: the database is not opened.
        let location = try StoreLocation(store)
        if case .foreignDatabase = location {
            throw CommandFailure("\(store): an SQLite database Quarry did not make records no Quarry history " +
                                 "(a Core Data store's own persistent history shows as its History entity in quarry browse)")
        }
        if let pruneBefore, let target = HistoryPruneTarget(pruneBefore) {
            let history = try Self.historyStore(try Self.open(location, readOnly: false), location: location)
            let deleted: Int
            switch target {
            case .token(let token): deleted = try history.deleteHistory(before: token)
            case .date(let date): deleted = try history.deleteHistory(before: date)
            }
            print("pruned \(deleted) transaction\(deleted == 1 ? "" : "s") before \(pruneBefore)")
            return
        }
        let history = try Self.historyStore(try Self.open(location, readOnly: true), location: location)
        let found = try history.history(after: since.map(HistoryToken.init), limit: limit)
        let model = history.model
        if json {
            print(try HistoryJSON.text(found, model: model))
        } else {
            print(HistoryText(found, model: model, current: try history.currentHistoryToken()).text)
        }
    }

    /// The store at `location` with the model it records: a PostgreSQL store, else the file
    /// (or folder) opened as a Quarry SQLite store, which refuses what it is not.
    static func open(_ location: StoreLocation, readOnly: Bool) throws -> any PersistentHistoryStore {
        switch location {
        case .postgreSQL(let url):
            return try PostgreSQLStoreOpening.store(url, model: nil, readOnly: readOnly)
        case .jsonFolder(let path), .sqliteFile(let path), .foreignDatabase(let path):
            return try SQLiteStore(url: URL(fileURLWithPath: path), model: nil, options: .init(readOnly: readOnly))
        }
    }

    /// The store as one that records history, or a failure saying it records none.
    static func historyStore(_ store: any PersistentHistoryStore, location: StoreLocation) throws -> any PersistentHistoryStore {
        if (store as? PostgreSQLStore)?.foreign != nil {
            throw CommandFailure("\(location.shown): a PostgreSQL schema Quarry did not make records no Quarry history")
        }
        guard store.recordsHistory else {
            throw CommandFailure("\(location.shown): records no persistent history (made before history existed and not opened for writing since, or with history turned off)")
        }
        return store
    }
}

/// What `--prune-before` names: a token or a moment.
enum HistoryPruneTarget {
    case token(HistoryToken)
    case date(Date)

    /// Reads a token (digits) or a date: `yyyy-MM-dd`, `yyyy-MM-ddTHH:mm[:ss]` in local time,
    /// or ISO 8601 with a zone (`2026-11-24T10:00:00Z`).
    init?(_ text: String) {
        if let value = Int64(text), value >= 0 { self = .token(HistoryToken(value)); return }
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { self = .date(date); return }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = .current
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd"] {
            local.dateFormat = format
            if let date = local.date(from: text) { self = .date(date); return }
        }
        return nil
    }
}
