import Foundation
import Quarry

/// How commands open a `postgres://` store given where a store path goes (a
/// ``StoreLocation/postgreSQL(url:)``): every message names the URL without its password.
enum PostgreSQLStoreOpening {
    /// `argument` parsed.
    /// - Throws: a ``CommandFailure`` when the URL is malformed (naming it, without its password).
    static func url(_ argument: String) throws -> PostgreSQLStoreURL {
        do {
            return try PostgreSQLStoreURL(parsing: argument)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// Stack options for the store at `argument` (``PersistentStack/StoreType/postgreSQL``).
    static func stackOptions(_ argument: String) throws -> PersistentStack.Options {
        let parsed = try url(argument)
        guard let url = URL(string: argument) else { throw CommandFailure("\(parsed): not a valid URL") }
        var options = PersistentStack.Options()
        // The URL as given: the stack parses it again, keeping a password written in it.
        options.storeURL = url
        options.storeType = .postgreSQL
        return options
    }

    /// Whether a store has been made at `argument`.
    static func exists(_ argument: String) throws -> Bool {
        let url = try url(argument)
        return try PostgreSQLStore.storeExists(url: url)
    }

    /// Whether the schema at `argument` holds tables or views and no Quarry store: a schema
    /// Quarry did not make, only ever read (``PostgreSQLStore/foreign``).
    static func isForeign(_ argument: String) throws -> Bool {
        try PostgreSQLStore.schemaKind(url: url(argument)) == .foreign
    }

    /// The store at `argument` with `model` (the one it records when `nil`); a schema Quarry
    /// did not make opens read-only with the model read from its catalog (see
    /// ``reportWarnings(of:)``).
    static func store(_ argument: String, model: ManagedObjectModel?, readOnly: Bool) throws -> PostgreSQLStore {
        let url = try url(argument)
        let store: PostgreSQLStore
        do {
            store = try PostgreSQLStore(url: url, model: model, options: .init(readOnly: readOnly, maximumConnections: 2))
        } catch StoreError.missingMetadata {
            throw CommandFailure("\(url): no Quarry store in schema '\(url.schema)', and no table or view to read there")
        }
        return store
    }

    /// Prints on stderr what reading a schema Quarry did not make skipped or guessed.
    static func reportWarnings(of store: PostgreSQLStore) {
        for warning in store.foreign?.warnings ?? [] {
            FileHandle.standardError.write(Data("quarry: warning: \(ConsoleText.escapedLines(warning))\n".utf8))
        }
    }

    /// How `quarry` describes a schema Quarry did not make, after its URL.
    static func foreignOrigin(_ foreign: ForeignPostgreSQLSchema) -> String {
        "PostgreSQL schema Quarry did not make, read-only; model from \(foreign.modelSource)"
    }

    /// Drops the store this command made at `argument` after the command failed (its
    /// failure is what is reported, so a failed drop is not).
    static func destroy(_ argument: String) {
        if let url = try? url(argument) { try? PostgreSQLStore.destroy(url: url) }
    }

    /// The URL as shown to the user (no password).
    static func shown(_ argument: String) -> String {
        (try? PostgreSQLStoreURL(parsing: argument).description) ?? argument
    }
}
