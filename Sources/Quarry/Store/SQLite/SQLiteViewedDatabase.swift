import Foundation

/// A database Quarry did not make, as an ``SQLiteStore`` reads it: a read-only snapshot of the
/// file, optional auxiliary tables attached as `aux`, and the `TEMP` views that give it the
/// layout of `model` (``StoreLayout``), so every query, row read and fetched-results path works
/// on it unchanged. The foreign back end builds one (``ForeignDatabase``); the SQLite back end
/// only opens it.
struct SQLiteViewedDatabase: Sendable {
    /// The database file, as the user named it.
    var path: String
    /// The store identifier the views report.
    var identifier: UUID
    /// The model the views are shaped as.
    var model: ManagedObjectModel
    /// The `immutable=1` URI every connection opens.
    var snapshotURI: String
    /// The URI of the auxiliary tables (attached as `aux`), when there are any.
    var auxiliaryURI: String?
    /// The statements that make the `TEMP` views, run on every new connection.
    var views: [String]
    /// What opened it (the ``ForeignDatabase``), handed back to whoever asks.
    var origin: any Sendable
}
