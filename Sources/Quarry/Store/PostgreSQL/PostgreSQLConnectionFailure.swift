#if PostgreSQL
import Foundation
import PostgresNIO

/// What went wrong when Quarry could not reach or log in to a PostgreSQL store, in words a
/// user acts on, instead of the driver's text (`SingleConnectionFailure(target: [IPv4]…`).
///
/// A server that answered says why with an SQLSTATE (authentication, a missing database, too
/// many connections); a connection that never got that far is told by what the system said
/// (refused, unreachable, timed out, an unknown host name) or by the TLS layer.
enum PostgreSQLConnectionFailure {
    /// The message for `error`, met while connecting to `url`, or `nil` when it is not a
    /// connection failure (a query's error keeps its own text).
    static func message(for error: any Error, url: PostgreSQLStoreURL) -> String? {
        let endpoint = "\(url.host):\(url.port)"
        if let psql = error as? PSQLError, let state = psql.serverInfo?[.sqlState] {
            switch state {
            case "28P01", "28000":
                return "authentication failed for user '\(url.user)' on \(endpoint) (check the password in the URL, PGPASSWORD or ~/.pgpass, and pg_hba.conf)"
            case "3D000":
                return "the database '\(url.database)' does not exist on \(endpoint)"
            case "53300":
                return "the server at \(endpoint) has no connection slot left (too many connections)"
            case "57P03":
                return "the server at \(endpoint) is starting up or shutting down; try again"
            default:
                return nil
            }
        }
        // PSQLError's description hides its details on purpose; its reflection has the
        // system's or the TLS layer's words (never the password: it is not in the error).
        let text = String(reflecting: error)
        let lowered = text.lowercased()
        func mentions(_ words: String...) -> Bool { words.contains { lowered.contains($0) } }
        if mentions("nisssl", "niossl", "handshake", "certificate", "tls", "ssl") {
            return "TLS with \(endpoint) failed (sslmode=\(url.tls)): \(shortReason(text))"
        }
        if mentions("connection refused", "econnrefused", "errno: 111") {
            return "connection refused by \(endpoint): no PostgreSQL server listens there"
        }
        if mentions("dnsaerror", "dnsaaaaerror", "name or service not known", "nodename nor servname", "no address") {
            return "the host name '\(url.host)' was not found"
        }
        if mentions("no route to host", "network is unreachable", "host is down", "errno: 113", "errno: 101") {
            return "the host \(url.host) is unreachable"
        }
        if mentions("timeout", "timed out") {
            return "connecting to \(endpoint) timed out (the host does not answer)"
        }
        if error is PSQLError || mentions("singleconnectionfailure", "nioconnectionerror", "connection reset", "connection closed") {
            return "could not connect to \(endpoint): \(shortReason(text))"
        }
        return nil
    }

    /// The driver's text without its type dumps, cut to one readable line.
    private static func shortReason(_ text: String) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        return line.count > 160 ? String(line.prefix(160)) + "…" : line
    }
}
#endif
