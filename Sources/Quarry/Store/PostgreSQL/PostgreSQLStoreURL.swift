import Foundation

/// Where a PostgreSQL store lives: `postgres://user@host:port/database?schema=name`.
///
/// Accepted wherever a store path is (`quarry browse URL`, `demo --store URL`, …). Connections
/// are made by libpq (``connectionParameters``), so the password comes, as for `psql`, from the
/// URL itself (`user:password@`, discouraged: it shows in `ps`), `PGPASSWORD`, or the password
/// file (`PGPASSFILE`, else `~/.pgpass`). `sslmode` is libpq's (`disable`, `allow`, `prefer`,
/// `require`, `verify-ca`, `verify-full`; loopback hosts default to `disable`, others to
/// `prefer`). `schema` (default `public`) is the PostgreSQL schema the store's tables live in,
/// so one database can hold several stores.
///
/// ```swift
/// let url = try PostgreSQLStoreURL(parsing: "postgres://quarry@127.0.0.1:5432/quarry?schema=demo")
/// url.description   // "postgres://quarry@127.0.0.1:5432/quarry?schema=demo" (never the password)
/// ```
public struct PostgreSQLStoreURL: Sendable, Hashable, CustomStringConvertible {
    /// How TLS is used: libpq's `sslmode`.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Never.
        case disable
        /// Without TLS, then with it if the server insists.
        case allow
        /// With TLS when the server offers it, else without.
        case prefer
        /// Always, refusing a server without it (the certificate is not checked).
        case require
        /// Always, with a server certificate signed by a trusted authority.
        case verifyCA = "verify-ca"
        /// Always, with a trusted certificate naming the host.
        case verifyFull = "verify-full"
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
    /// The password given in the URL itself, if any (see `password(environment:)`).
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
                guard let mode = TLSMode(rawValue: item.value ?? "") else {
                    throw StoreError.cannotOpen(path: shown, reason: "unknown sslmode '\(item.value ?? "")' (\(TLSMode.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                tls = mode
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

    /// libpq's connection parameters for this URL: the server, database, role, `sslmode`, the
    /// URL's password when it has one (else libpq finds one: `PGPASSWORD`, `PGPASSFILE` or
    /// `~/.pgpass`), the store's schema as `search_path`, `application_name` `quarry` and a
    /// 10-second connect timeout.
    public var connectionParameters: [(key: String, value: String)] {
        var parameters: [(key: String, value: String)] = [
            ("host", host), ("port", String(port)), ("dbname", database), ("user", user),
            ("sslmode", tls.rawValue), ("application_name", "quarry"), ("connect_timeout", "10"),
            // A backslash escapes a space or a backslash in libpq's `options`.
            ("options", "-c search_path=" + sqlIdentifier(schema).replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: " ", with: "\\ ")),
        ]
        if let urlPassword { parameters.append(("password", urlPassword)) }
        return parameters
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
