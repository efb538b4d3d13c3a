import Foundation

/// What went wrong when Quarry could not reach or log in to a PostgreSQL store, in words a
/// user acts on, from libpq's message (`connection to server at "…", port … failed: FATAL: …`).
///
/// A server that answered says why (authentication, a missing database or role, too many
/// connections, starting up); a connection that never got that far is told by what the system
/// said (refused, unreachable, timed out, an unknown host name) or by the TLS layer. libpq's
/// messages never hold the password.
enum PostgreSQLConnectionFailure {
    /// The message for libpq's `reason`, met while connecting to `url`.
    static func message(for reason: String, url: PostgreSQLStoreURL) -> String {
        let endpoint = "\(url.host):\(url.port)"
        let lowered = reason.lowercased()
        func mentions(_ words: String...) -> Bool { words.contains { lowered.contains($0) } }
        if mentions("password authentication failed", "authentication failed", "no password supplied", "no pg_hba.conf entry") {
            return "authentication failed for user '\(url.user)' on \(endpoint) (check the password in the URL, PGPASSWORD or ~/.pgpass, and pg_hba.conf): \(shortReason(reason))"
        }
        if mentions("database \"") && mentions("does not exist") {
            return "the database '\(url.database)' does not exist on \(endpoint)"
        }
        if mentions("role \"") && mentions("does not exist") {
            return "the role '\(url.user)' does not exist on \(endpoint)"
        }
        if mentions("too many clients", "remaining connection slots") {
            return "the server at \(endpoint) has no connection slot left (too many connections)"
        }
        if mentions("the database system is starting up", "the database system is shutting down", "in recovery mode") {
            return "the server at \(endpoint) is starting up or shutting down; try again"
        }
        if mentions("ssl", "certificate", "tls") {
            return "TLS with \(endpoint) failed (sslmode=\(url.tls.rawValue)): \(shortReason(reason))"
        }
        if mentions("connection refused") {
            return "connection refused by \(endpoint): no PostgreSQL server listens there"
        }
        if mentions("could not translate host name", "name or service not known", "temporary failure in name resolution") {
            return "the host name '\(url.host)' was not found"
        }
        if mentions("no route to host", "network is unreachable", "host is down") {
            return "the host \(url.host) is unreachable"
        }
        if mentions("timeout expired", "timed out") {
            return "connecting to \(endpoint) timed out (the host does not answer)"
        }
        return "could not connect to \(endpoint): \(shortReason(reason))"
    }

    /// libpq's words after its `connection to server at … failed:` preamble, cut to one
    /// readable line.
    private static func shortReason(_ text: String) -> String {
        var line = text
        if let failed = line.range(of: " failed: ") { line = String(line[failed.upperBound...]) }
        line = line.replacingOccurrences(of: "FATAL:  ", with: "")
        return line.count > 160 ? String(line.prefix(160)) + "…" : line
    }
}
