import Foundation

/// Where a PostgreSQL store lives: `postgres://user@host:port/database?schema=name`.
///
/// Accepted wherever a store path is (`quarry browse URL`, `demo --store URL`, …). The
/// password comes, in order, from the URL itself (`user:password@`, discouraged: it shows in
/// `ps`), `PGPASSWORD`, or the password file (`PGPASSFILE`, else `~/.pgpass`, libpq's format
/// `host:port:database:user:password` with `*` wildcards and `\:` escapes). `sslmode=require`
/// (or `verify-full`, `verify-ca`) in the query asks for TLS; `prefer` tries it; `disable`
/// (and loopback hosts by default) never does. `schema` (default `public`) is the PostgreSQL
/// schema the store's tables live in, so one database can hold several stores.
///
/// ```swift
/// let url = try PostgreSQLStoreURL(parsing: "postgres://quarry@127.0.0.1:5432/quarry?schema=demo")
/// url.description   // "postgres://quarry@127.0.0.1:5432/quarry?schema=demo" (never the password)
/// ```
public struct PostgreSQLStoreURL: Sendable, Hashable, CustomStringConvertible {
    /// How TLS is used (libpq's `sslmode`, reduced to what PostgresNIO distinguishes).
    public enum TLSMode: String, Sendable, Hashable {
        /// Never (`sslmode=disable`, `allow`).
        case disable
        /// When the server offers it (`sslmode=prefer`).
        case prefer
        /// Always, refusing a server without it (`require`, `verify-ca`, `verify-full`).
        case require
    }

    /// The role connected as.
    public var user: String
    /// The server's host name or address.
    public var host: String
    /// The server's TCP port (5432 by default).
    public var port: Int
    /// The database connected to.
    public var database: String
    /// The schema holding the store's tables (`public` by default).
    public var schema: String
    /// How TLS is used.
    public var tls: TLSMode
    /// The password given in the URL itself, if any (see ``password(environment:)``).
    public var urlPassword: String?

    /// Whether `string` names a PostgreSQL store (starts with `postgres://` or `postgresql://`).
    public static func isStoreURL(_ string: String) -> Bool {
        string.hasPrefix("postgres://") || string.hasPrefix("postgresql://")
    }

    /// Parses `string`.
    ///
    /// - Throws: ``StoreError/cannotOpen(path:reason:)`` naming what is wrong (the password,
    ///   if any, left out of the message).
    public init(parsing string: String) throws {
        let shown = Self.redacted(string)
        guard Self.isStoreURL(string), let components = URLComponents(string: string) else {
            throw StoreError.cannotOpen(path: shown, reason: "not a PostgreSQL URL (postgres://user@host:port/database?schema=name)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw StoreError.cannotOpen(path: shown, reason: "the URL names no host")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw StoreError.cannotOpen(path: shown, reason: "the URL names no database (postgres://user@host/database)")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.database = database.removingPercentEncoding ?? database
        self.user = components.user?.removingPercentEncoding
            ?? ProcessInfo.processInfo.environment["PGUSER"] ?? NSUserName()
        self.urlPassword = components.password?.removingPercentEncoding
        var schema = "public"
        var tls: TLSMode = Self.isLoopback(host) ? .disable : .prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "schema", "search_path":
                guard let value = item.value, !value.isEmpty else {
                    throw StoreError.cannotOpen(path: shown, reason: "'schema' needs a name")
                }
                schema = value
            case "sslmode":
                switch item.value ?? "" {
                case "disable", "allow": tls = .disable
                case "prefer": tls = .prefer
                case "require", "verify-ca", "verify-full": tls = .require
                default:
                    throw StoreError.cannotOpen(path: shown, reason: "unknown sslmode '\(item.value ?? "")' (disable, prefer, require, verify-ca, verify-full)")
                }
            case "user":
                if let value = item.value, !value.isEmpty { user = value }
            default:
                throw StoreError.cannotOpen(path: shown, reason: "unknown URL parameter '\(item.name)' (schema, sslmode, user)")
            }
        }
        self.schema = schema
        self.tls = tls
    }

    /// The URL without its password: what messages and `quarry stats` show.
    public var description: String {
        var text = "postgres://\(Self.escaped(user))@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(Self.escaped(database))"
        var query: [String] = []
        if schema != "public" { query.append("schema=\(Self.escaped(schema))") }
        if tls != (Self.isLoopback(host) ? .disable : .prefer) { query.append("sslmode=\(tls.rawValue)") }
        if !query.isEmpty { text += "?" + query.joined(separator: "&") }
        return text
    }

    /// The password to log in with: the URL's, else `PGPASSWORD`, else the first matching line
    /// of the password file (`PGPASSFILE`, else `~/.pgpass`); `nil` when none is found (the
    /// server may not ask for one).
    public func password(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let urlPassword { return urlPassword }
        if let password = environment["PGPASSWORD"] { return password }
        let file = environment["PGPASSFILE"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".pgpass").path
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil } // an unreadable password file gives no password, as libpq does; the server's refusal names the user
        return Self.passwordFileMatch(text, host: host, port: port, database: database, user: user)
    }

    /// The password of the first line of a libpq password file matching the connection (`*`
    /// matches anything; `\:` and `\\` are escapes; `#` starts a comment line).
    static func passwordFileMatch(_ text: String, host: String, port: Int, database: String, user: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            var fields: [String] = [], field = "", escaped = false
            for character in line {
                if escaped { field.append(character); escaped = false }
                else if character == "\\" { escaped = true }
                else if character == ":" && fields.count < 4 { fields.append(field); field = "" }
                else { field.append(character) }
            }
            fields.append(field)
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            let hostMatches = fields[0] == "*" || fields[0] == host || (fields[0] == "localhost" && isLoopback(host))
            if hostMatches && zip(fields[1...3], wanted[1...3]).allSatisfy({ $0 == "*" || $0 == $1 }) {
                return fields[4]
            }
        }
        return nil
    }

    /// Whether `host` is this machine (no TLS by default, as libpq's `prefer` would find none).
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// `string` with any password after `user:` replaced by `***`, for messages.
    static func redacted(_ string: String) -> String {
        guard let scheme = string.range(of: "://"), let at = string[scheme.upperBound...].firstIndex(of: "@"),
              let colon = string[scheme.upperBound..<at].firstIndex(of: ":") else { return string }
        return String(string[..<string.index(after: colon)]) + "***" + String(string[at...])
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@/?#"))) ?? text
    }
}
