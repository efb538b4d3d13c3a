import Foundation

/// A PostgreSQL schema Quarry did not make, for the tests that read one: every column type
/// ``ForeignPostgreSQLSchema`` maps, a serial key, a `bigserial` key, a composite key, a table
/// without a key, a view, foreign keys (one to a `UNIQUE` column, one composite), an enum and
/// an array.
///
/// `sector` (12 rows, `id` 1…12, `name` "sector N"), `company` (`rows` rows, `id` 1…rows:
/// `sector_id` = 1 + id % 12, `name` "Company N", `price` = (id % 100000) / 100 as
/// `numeric(12,2)`, `listed` = 2000-01-01 + id % 9000 days, `updated_at` = 2024-01-01 00:00 UTC
/// + id minutes, `info` = `{"n": id, "even": …}`, `ref` = md5(id) as a UUID, `mood` cycling
/// ok/happy/sad from id 1, `tags` = `{t<id % 5>,x}`, `active` = id even), `quote` (keyed by
/// `(symbol, day)`, 50 rows), `note` (no key, 3 rows, `company_name` referring to
/// `company.name`), `big_companies` (a view of companies priced over 5.00).
public enum ForeignShopSchema {
    /// The statements making the schema `schema` with `rows` companies.
    public static func statements(schema: String, rows: Int) -> [String] {
        let s = "\"\(schema)\""
        return [
            "CREATE SCHEMA \(s)",
            "CREATE TYPE \(s).mood AS ENUM ('sad', 'ok', 'happy')",
            "CREATE TABLE \(s).sector (id serial PRIMARY KEY, name text NOT NULL UNIQUE)",
            """
            CREATE TABLE \(s).company (id bigserial PRIMARY KEY, sector_id integer REFERENCES \(s).sector(id), \
            name varchar(80) NOT NULL UNIQUE, price numeric(12,2), listed date, updated_at timestamptz, info jsonb, ref uuid, \
            mood \(s).mood, tags text[], active boolean)
            """,
            """
            CREATE TABLE \(s).quote (symbol text, day date, close numeric(12,2), company_id bigint REFERENCES \(s).company(id), \
            PRIMARY KEY (symbol, day))
            """,
            "CREATE TABLE \(s).note (body text, company_name varchar(80) REFERENCES \(s).company(name) ON UPDATE CASCADE ON DELETE SET NULL)",
            "CREATE VIEW \(s).big_companies AS SELECT id, name, price FROM \(s).company WHERE price > 5",
            "INSERT INTO \(s).sector (name) SELECT 'sector ' || g FROM generate_series(1, 12) g",
            """
            INSERT INTO \(s).company (sector_id, name, price, listed, updated_at, info, ref, mood, tags, active)
            SELECT 1 + g % 12, 'Company ' || g, (g % 100000) / 100.0, date '2000-01-01' + g % 9000,
              timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute', jsonb_build_object('n', g, 'even', g % 2 = 0),
              md5(g::text)::uuid, (ARRAY['sad', 'ok', 'happy'])[1 + g % 3]::\(s).mood, ARRAY['t' || g % 5, 'x'], g % 2 = 0
            FROM generate_series(1, \(rows)) g
            """,
            """
            INSERT INTO \(s).quote SELECT 'S' || (g % 5), date '2020-01-01' + g / 5, g / 7.0, 1 + g % \(max(1, min(rows, 10)))
            FROM generate_series(1, 50) g
            """,
            "INSERT INTO \(s).note VALUES ('first', 'Company 1'), ('second', 'Company 2'), ('orphan', NULL)",
            "ANALYZE \(s).company",
        ]
    }

    /// Makes the schema `schema` with `rows` companies, each statement run by `execute` (on a
    /// connection of the test's own that may write).
    public static func create(schema: String, rows: Int, execute: (String) throws -> Void) throws {
        for sql in statements(schema: schema, rows: rows) { try execute(sql) }
    }

    /// The statements dropping the schema with everything in it, and the publication a live
    /// stack on it made (`quarry_<schema>`: test schemas are already lower-case identifiers).
    public static func dropStatements(schema: String) -> [String] {
        ["DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE", "DROP PUBLICATION IF EXISTS \"quarry_\(schema)\""]
    }
}
