import Foundation
import Quarry

/// What a command's store argument names, decided once per command, in this one place, before
/// anything opens it.
///
/// The decision (``init(_:)``) asks the engine, in this order: a `postgres://` or
/// `postgresql://` URL (``PostgreSQLStoreURL/isStoreURL(_:)``; nothing on disk is looked at) is
/// a PostgreSQL store; a path is looked at with ``FileKind`` (symbolic links followed): a folder
/// is a JSON store folder, nothing at all is where a Quarry SQLite store would be made; anything
/// else is looked at by ``ForeignDatabase/isForeign(path:)``, SQLite's read-only peek, which
/// writes nothing, refuses a FIFO, a device or a socket before opening it, and refuses a file
/// that is not SQLite, each naming the path. What the peek finds is a Quarry store (or an empty
/// file, a store to be) or a database Quarry did not make.
///
/// Whether a database Quarry did not make is a plain SQLite file or an Apple Core Data store is
/// the engine's answer once it opens it (``ForeignDatabase/kind``, see
/// ``StoreOpening/foreignDatabase(_:modelPath:)``): that needs the `--model` versions a Core
/// Data store chooses from, and opening, which commands that only refuse such a database
/// (`import`, `migrate`, `history`) never do.
///
/// ```swift
/// let location = try StoreLocation(store)
/// let stack = try StoreOpening.openReadOnly(location)
/// ```
enum StoreLocation: Equatable, Sendable {
    /// A PostgreSQL store, named by its URL (as given: shown only through ``shown``, which
    /// leaves the password out).
    case postgreSQL(url: String)
    /// A folder, or a link to one: a JSON store folder. A folder holding something else is
    /// refused, naming it, by the JSON store that opens it.
    case jsonFolder(path: String)
    /// A Quarry SQLite store file; also nothing at all (a dangling symbolic link included) or an
    /// empty file, where a command given `--model` makes one.
    case sqliteFile(path: String)
    /// An SQLite database Quarry did not make (any SQLite file, an Apple Core Data store): only
    /// ever read.
    case foreignDatabase(path: String)

    /// Decides what `argument` names (see ``StoreLocation``).
    /// - Throws: the engine's ``StoreError`` naming the path when the peek refuses it: a FIFO,
    ///   a device or a socket (``StoreError/notAFile(path:kind:)``), or a file that is not SQLite.
    init(_ argument: String) throws {
        if Self.isPostgreSQLURL(argument) {
            self = .postgreSQL(url: argument)
            return
        }
        switch FileKind(path: argument).kind {
        case .directory:
            self = .jsonFolder(path: argument)
        case .missing:
            self = .sqliteFile(path: argument)
        default:
            self = try ForeignDatabase.isForeign(path: argument) ? .foreignDatabase(path: argument) : .sqliteFile(path: argument)
        }
    }

    /// Where `argument` would put a new store, nothing there looked at (whatever is there is
    /// for the creating command to refuse): a PostgreSQL URL, else a path, named here as an
    /// SQLite file.
    init(newStoreAt argument: String) {
        self = Self.isPostgreSQLURL(argument) ? .postgreSQL(url: argument) : .sqliteFile(path: argument)
    }

    /// The location `quarry model`'s argument names when it is a store rather than a model
    /// file: a PostgreSQL URL, or a regular file starting with SQLite's header (decided as
    /// ``init(_:)`` does); `nil` for anything else, which the model loader reads (and refuses
    /// by kind: it never opens a FIFO).
    static func store(orModelFile argument: String) throws -> StoreLocation? {
        guard isPostgreSQLURL(argument) || isSQLiteFile(argument) else { return nil }
        return try StoreLocation(argument)
    }

    /// Whether nothing is at `argument` (a symbolic link to nothing included), for the commands
    /// that read an existing store; a URL's server is only asked when the store is opened.
    static func isAbsent(_ argument: String) -> Bool {
        !isPostgreSQLURL(argument) && FileKind(path: argument).kind == .missing
    }

    /// Whether `argument` is a PostgreSQL store URL rather than a path.
    static func isPostgreSQLURL(_ argument: String) -> Bool {
        PostgreSQLStoreURL.isStoreURL(argument)
    }

    /// Whether `path` is a regular file starting with SQLite's header.
    static func isSQLiteFile(_ path: String) -> Bool {
        // Opening a FIFO would block until a writer came; a device is no store.
        guard FileKind(path: path).kind == .regularFile, let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
    }

    /// The argument as given: the path, or the URL with its password (never shown).
    var argument: String {
        switch self {
        case .postgreSQL(let url): return url
        case .jsonFolder(let path), .sqliteFile(let path), .foreignDatabase(let path): return path
        }
    }

    /// The store as messages name it: the path, or the URL without its password.
    var shown: String {
        if case .postgreSQL(let url) = self { return PostgreSQLStoreOpening.shown(url) }
        return argument
    }

    /// The path as a file URL; `nil` for a PostgreSQL store.
    var fileURL: URL? {
        if case .postgreSQL = self { return nil }
        return URL(fileURLWithPath: argument)
    }

    /// Whether this is a PostgreSQL store.
    var isPostgreSQL: Bool {
        if case .postgreSQL = self { return true }
        return false
    }
}
