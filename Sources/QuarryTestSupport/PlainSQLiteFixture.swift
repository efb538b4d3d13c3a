import Foundation
import GRDB

/// An SQLite database of another program, for the foreign-database tests: foreign keys (to an
/// `INTEGER PRIMARY KEY`, to a `UNIQUE` text column, to a `WITHOUT ROWID` table), a view, a
/// composite primary key, Unicode table and column names, dates as ISO-8601 text and Unix
/// seconds, a boolean, a blob and an untyped column holding text and numbers.
public enum PlainSQLiteFixture {
    /// The statements that make it.
    public static let sql = """
        CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE, email TEXT UNIQUE);
        CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT, author_id INTEGER REFERENCES authors(id), price REAL,
                            published_at TEXT, updated INTEGER, cover BLOB, in_print BOOLEAN);
        CREATE TABLE "Städte und Flüsse" ("Name der Stadt" TEXT, "Einwohner (2020)" INTEGER, "κωδικός" TEXT);
        CREATE TABLE tags (label TEXT PRIMARY KEY, color TEXT) WITHOUT ROWID;
        CREATE TABLE book_tags (book_id INTEGER REFERENCES books(id), tag TEXT REFERENCES tags(label), weight INTEGER,
                                PRIMARY KEY (book_id, tag));
        CREATE TABLE reviews (author_email TEXT REFERENCES authors(email), stars INTEGER, note);
        CREATE VIEW cheap_books AS SELECT title, price FROM books WHERE price < 10;
        INSERT INTO authors VALUES (1, 'Ursula K. Le Guin', '1929-10-21', 'ursula@example.org'),
                                   (2, 'Stanisław Lem', '1921-09-12', 'lem@example.org');
        INSERT INTO books VALUES (1, 'The Dispossessed', 1, 9.5, '1974-05-01T00:00:00Z', 1700000000, x'00010203', 1),
                                 (2, 'Solaris', 2, 12.0, '1961-06-01 12:30:00', 1700000100, NULL, 0),
                                 (3, 'The Left Hand of Darkness', 1, 8.25, '1969-03-01', NULL, x'ff', 1);
        INSERT INTO "Städte und Flüsse" VALUES ('München', 1488202, 'MUC'), ('Zürich', 421878, 'ZRH');
        INSERT INTO tags VALUES ('sf', 'blue'), ('classic', 'gold');
        INSERT INTO book_tags VALUES (1, 'sf', 3), (1, 'classic', 1), (2, 'sf', 2);
        INSERT INTO reviews VALUES ('ursula@example.org', 5, 'superb'), ('lem@example.org', 4, 42);
        """

    /// Writes the database at `url` and closes it (rollback journal: no `-wal`/`-shm` left).
    @discardableResult
    public static func write(to url: URL, walMode: Bool = false) throws -> URL {
        let queue = try DatabaseQueue(path: url.path)
        try queue.writeWithoutTransaction { db in
            if walMode { try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try db.execute(sql: sql)
        }
        try queue.close()
        return url
    }

    /// A database with one table `trades` of `rows` rows (`id INTEGER PRIMARY KEY, symbol,
    /// price, volume`, indexed on `symbol`), written in one statement.
    public static func writeTrades(to url: URL, rows: Int) throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE trades (id INTEGER PRIMARY KEY, symbol TEXT, price REAL, volume INTEGER);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
                INSERT INTO trades SELECT i, printf('S%06d', (i * 7919) % \(rows)), (i % 1000) / 10.0, i % 977 FROM n;
                CREATE INDEX trades_symbol ON trades (symbol);
                """)
        }
        try queue.close()
    }
}
