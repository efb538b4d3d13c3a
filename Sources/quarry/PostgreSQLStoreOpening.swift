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

    /// The store at `argument` with `model` (the one it records when `nil`).
    static func store(_ argument: String, model: ManagedObjectModel?, readOnly: Bool) throws -> any PersistentHistoryStore {
        let url = try url(argument)
        guard try PostgreSQLStore.storeExists(url: url) || model != nil else {
            throw CommandFailure("\(url): no Quarry store in schema '\(url.schema)'")
        }
        return try PostgreSQLStore(url: url, model: model, options: .init(readOnly: readOnly, maximumConnections: 2))
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
