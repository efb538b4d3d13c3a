/// Whether this build of Quarry has the PostgreSQL store (the `PostgreSQL` package trait, on by
/// default), and what to say when it has not.
public enum PostgreSQLSupport {
    /// Whether ``PostgreSQLStore`` is compiled in.
    public static var isAvailable: Bool {
        #if PostgreSQL
        return true
        #else
        return false
        #endif
    }

    /// Why a `postgres://` store cannot be opened by a build without the trait.
    public static let unavailableReason = "this quarry was built without PostgreSQL support (build with the default PostgreSQL package trait)"

    /// The error thrown for `url` when ``isAvailable`` is false: names the URL, never its password.
    public static func unavailableError(_ url: String) -> StoreError {
        StoreError.cannotOpen(path: PostgreSQLStoreURL.redacted(url), reason: unavailableReason)
    }
}
