/// Where the rows of a database Quarry did not make come from: for every table and column of
/// the Quarry layout of a model (``StoreLayout``), an SQL expression over the file's own
/// tables.
///
/// A foreign database (any SQLite file, an Apple Core Data store) is read through the same
/// query compiler, row reader and fetched-results paths as a Quarry store: on every connection
/// the store creates `TEMP` views named and shaped as the layout's tables (`Z_PK`, `Z_ENT`,
/// `Z_OPT`, one column per layout column; join tables `Z_SRC`, `Z_DST`, `Z_DST_ENT`, `Z_ORD`)
/// whose columns are these expressions (see ``ForeignViews``). Simple views are flattened by
/// SQLite's planner, so a bare column expression keeps the file's own indexes usable for
/// sorting and filtering.
///
/// Every expression is evaluated in a `FROM` whose source rows are aliased `s` (see
/// ``Table/from``); it must already produce the value in Quarry's stored form for the
/// attribute's type: dates as seconds since 2001-01-01 (`REAL`), booleans 0/1, UUIDs as their
/// `uuidString` text, transformables as bytes their transformer decodes. A key without an
/// expression reads as `NULL`.
struct ForeignSource: Sendable {
    /// Where the rows of one root entity's layout table come from.
    struct Table: Sendable {
        /// The `FROM` clause body, with the rows the table holds aliased `s`, every name
        /// schema-qualified (`main."ZITEM" AS s`; the views live in `temp`, where a bare name
        /// could find a view before the file's table).
        var from: String
        /// The object's primary key (an `INTEGER` unique in the table): `s.Z_PK`, `s.rowid`.
        var primaryKey: String
        /// The Quarry entity index of the row (`CASE s.Z_ENT WHEN 3 THEN 0 … END`); `nil` when
        /// every row is of the root entity.
        var entity: String?
        /// The row version (`s.Z_OPT`); `nil` reads 0.
        var version: String?
        /// A condition the source rows must meet (`s.Z_ENT IN (3, 4)`), or `nil`.
        var filter: String?
    }

    /// Where a many-to-many (or inverse-less to-many) relationship's pairs come from.
    struct JoinTable: Sendable {
        /// The `FROM` clause body with the pair rows aliased `s` (`main."Z_8REPOSITORIES" AS s`).
        var from: String
        /// The primary key of the object of ``JoinKey/entity`` holding the relationship.
        var source: String
        /// The primary key of the destination object.
        var destination: String
        /// The destination's Quarry entity index (a constant, or a subquery on its table).
        var destinationEntity: String
        /// The position in an ordered relationship, or `nil` (then 0).
        var order: String?
    }

    /// A relationship, named by the entity that declares it and its name.
    struct JoinKey: Sendable, Hashable {
        var entity: Int
        var relationship: String
    }

    /// Per root entity index: its table's source. A root without one is an empty table.
    var tables: [Int: Table] = [:]
    /// Per layout column (attribute, to-one key, to-one entity, order column): its expression.
    var columns: [StoreLayout.ColumnKey: String] = [:]
    /// Per many-to-many relationship, keyed by either side: its pairs, seen from that side.
    var joinTables: [JoinKey: JoinTable] = [:]
    /// Statements that build the auxiliary tables (keys of tables without an integer key,
    /// copies of views), run once when the database is opened, in a private file of Quarry's
    /// own where the database itself is attached read-only as `src`. Every connection then
    /// attaches that file, read-only, as `aux`: sources refer to its tables as `aux."name"`.
    var setup: [String] = []

    init() {}
}
