import Foundation

/// The PostgreSQL server the tests run against: `QUARRY_TEST_POSTGRES_URL`, set by
/// `scripts/test.sh` after `scripts/postgres.sh start` (with `PGPASSFILE` for the password).
/// Suites that need it are enabled only when it is set, and say so when it is not.
public enum PostgreSQLTestServer {
    /// The server's URL from the environment, `nil` when no server was started.
    public static var url: String? {
        ProcessInfo.processInfo.environment["QUARRY_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether a server is available.
    public static var isAvailable: Bool { url != nil }

    /// Why PostgreSQL suites are skipped.
    public static let skipReason = "QUARRY_TEST_POSTGRES_URL is not set (scripts/test.sh starts a server: bash scripts/postgres.sh start)"

    /// A store URL on the test server in a schema of its own (`t_<random>`), so tests running
    /// in parallel never share tables; `nil` without a server.
    public static func freshStoreURL(label: String = "t") -> String? {
        guard let url else { return nil }
        let schema = "\(label)_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
        return url + (url.contains("?") ? "&" : "?") + "schema=\(schema)"
    }
}
