import Foundation
import GRDB

extension SQLiteStore {
    /// The read-only pool of a viewed database: every connection opens the snapshot's URI
    /// (`immutable=1`: no locks, no `-wal`/`-shm` made), registers Quarry's functions,
    /// attaches the auxiliary tables as `aux` when there are any, makes the views, then refuses
    /// writes (`query_only`).
    static func viewsPool(_ database: SQLiteViewedDatabase, busyTimeout: TimeInterval) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.label = "Quarry.SQLiteStore.foreign"
        configuration.busyMode = .timeout(busyTimeout)
        configuration.readonly = true
        let auxiliary = database.auxiliaryURI
        let views = database.views
        configuration.prepareDatabase { db in
            SQLiteFunctions.register(db)
            if let auxiliary { try db.execute(sql: "ATTACH DATABASE ? AS aux", arguments: [auxiliary]) }
            for sql in views { try db.execute(sql: sql) }
            try db.execute(sql: "PRAGMA query_only = 1")
        }
        do {
            return try DatabasePool(path: database.snapshotURI, configuration: configuration)
        } catch {
            throw storeError(error, path: database.path)
        }
    }
}
