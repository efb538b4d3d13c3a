import Foundation

/// What another program does to make a watched SQLite store's history unreadable: the SQL,
/// run in the `sqlite3` shell, that drops the history's change table and commits one more
/// history transaction marked as a Quarry save (the save count in `user_version` advanced), so
/// a stack watching the store reads that history, and cannot.
public enum HistoryVandal {
    /// The script for a store whose save count (`PRAGMA user_version`) is `saveCount`.
    public static func dropChangesScript(saveCount: Int) -> String {
        """
        BEGIN;
        DROP TABLE Z_HISTORYCHANGE;
        INSERT INTO Z_HISTORYTRANSACTION (Z_TIMESTAMP, Z_AUTHOR, Z_ORIGIN, Z_PROCESS) VALUES (0, 'vandal', '\(UUID().uuidString)', 0);
        PRAGMA user_version = \(saveCount + 1);
        COMMIT;
        """
    }
}
