import Foundation
import GRDB

extension SQLiteStore {
    /// The read-only pool of a foreign database: every connection opens the snapshot's URI
    /// (`immutable=1`: no locks, no `-wal`/`-shm` made), registers Quarry's functions,
    /// attaches the auxiliary tables (``ForeignAuxiliary``) and makes the views of
    /// ``ForeignViews``, then refuses writes (`query_only`).
    static func foreignPool(_ database: ForeignDatabase, layout: SQLiteLayout, busyTimeout: TimeInterval) throws -> DatabasePool {
        let views = ForeignViews.statements(model: database.model, layout: layout, source: database.source)
        var configuration = Configuration()
        configuration.label = "Quarry.SQLiteStore.foreign"
        configuration.busyMode = .timeout(busyTimeout)
        configuration.readonly = true
        let auxiliary = database.auxiliary?.uri
        configuration.prepareDatabase { db in
            SQLiteFunctions.register(db)
            if let auxiliary { try db.execute(sql: "ATTACH DATABASE ? AS aux", arguments: [auxiliary]) }
            for sql in views { try db.execute(sql: sql) }
            try db.execute(sql: "PRAGMA query_only = 1")
        }
        do {
            return try DatabasePool(path: database.snapshot.uri, configuration: configuration)
        } catch {
            throw storeError(error, path: database.path)
        }
    }
}
