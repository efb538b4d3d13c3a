import Foundation

extension SQLiteStore {
    /// Opens a database Quarry did not make (see ``ForeignDatabase``), always read-only: its
    /// model is the one ``ForeignDatabase/open(path:candidates:)`` recovered, and every
    /// connection reads the file (or the private copy its write-ahead log was folded into)
    /// through `TEMP` views shaped as this model's layout, so the file is never written.
    ///
    /// - Throws: ``StoreError`` when SQLite cannot open the file or make the views.
    public convenience init(foreign database: ForeignDatabase, busyTimeout: TimeInterval = 5) throws {
        let layout = StoreLayout.of(database.model)
        let viewed = SQLiteViewedDatabase(
            path: database.path, identifier: database.identifier, model: database.model,
            snapshotURI: database.snapshot.uri, auxiliaryURI: database.auxiliary?.uri,
            views: ForeignViews.statements(model: database.model, layout: layout, source: database.source),
            origin: database)
        try self.init(viewing: viewed, busyTimeout: busyTimeout)
    }

    /// The database Quarry did not make that this store reads through views (see
    /// ``init(foreign:busyTimeout:)``), or `nil` for a Quarry store.
    public var foreign: ForeignDatabase? { viewed?.origin as? ForeignDatabase }
}
