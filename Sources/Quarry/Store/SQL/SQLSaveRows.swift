/// How one save reaches its database's rows: what each SQL back end supplies to the save
/// template ``SQLSaveOperation/run(_:rows:)``, which owns the order of the steps (keys,
/// inserts, updates, deletes, conflicts, to-many contents). Only SQL text and connection
/// access differ between back ends; every call runs inside the save's transaction.
///
/// The template is generic over the conforming type, so these calls are specialised, not
/// dispatched through an existential, in the per-row loops.
protocol SQLSaveRows {
    /// Takes `count` new primary keys for root table `table` (by layout index), ascending.
    func allocateKeys(_ count: Int64, table: Int) throws -> [Int64]

    /// The most new rows of entity `entity` one ``insertRows(_:entity:)`` takes.
    func maxInsertRun(entity: Int) -> Int
    /// Inserts `run` (new rows of entity `entity`, with permanent IDs) at version 1.
    func insertRows(_ run: ArraySlice<ObjectChange>, entity: Int) throws

    /// The most rows of `shape` one ``updateRows(_:shape:)`` takes (1: one statement a row).
    func maxUpdateRun(_ shape: SQLUpdateShape) -> Int
    /// The versioned update of one row (`Z_OPT` still the version `change` was made from);
    /// returns whether a row was updated.
    func updateRow(_ change: ObjectChange, shape: SQLUpdateShape) throws -> Bool
    /// The versioned updates of `run` (distinct objects of one shape) in one statement;
    /// returns the primary keys of the rows updated.
    func updateRows(_ run: ArraySlice<ObjectChange>, shape: SQLUpdateShape) throws -> Set<Int64>

    /// Adds each of `increment`'s differences to its column (`slots`, in the same order; a
    /// `NULL` counts as zero) and bumps the row's version, whatever version it is at; returns
    /// the row's new version, `nil` when there is no row.
    func increment(_ increment: DerivedIncrement, slots: [RowSlots.Slot]) throws -> Int64?

    /// The row of `id` as committed, or `nil` when there is none.
    func snapshot(for id: ObjectID) throws -> Snapshot?
    /// Deletes the row of `id`, only at `version` when one is given; returns whether a row went.
    func deleteRow(_ id: ObjectID, version: Int64?) throws -> Bool
    /// Writes every column of `snapshot` at `version`; re-creates the row unless `exists`.
    func overwrite(_ id: ObjectID, with snapshot: Snapshot, version: Int64, exists: Bool) throws

    /// Writes each object's position in `ids` to order column `column` of `table`.
    func writeOrder(_ ids: [ObjectID], table: String, column: String) throws
    /// The keys on `side` of `join`'s rows whose other side is `key` (for `.destination`: the
    /// destinations of source `key`, by `Z_ORD`, then `Z_DST`).
    func joinKeys(_ join: StoreLayout.JoinTable, side: SQLJoinSide, otherSide key: Int64) throws -> [Int64]
    /// Deletes `join`'s rows whose `side` is `key`.
    func deleteJoinRows(_ join: StoreLayout.JoinTable, side: SQLJoinSide, key: Int64) throws
    /// Deletes `join`'s rows whose `side` is one of `keys` and whose other side is `other`.
    func deleteJoinRows(_ join: StoreLayout.JoinTable, side: SQLJoinSide, keys: [Int64], otherSide other: Int64) throws
    /// Writes the rows `(source, destination, its entity, order)`, replacing a pair already there.
    func insertJoinRows(_ join: StoreLayout.JoinTable, source: Int64, destinations: [(id: ObjectID, order: Int64)]) throws
    /// Adds `sources` to `destination`'s pairs (a pair already there stays), each at the end
    /// of its source's order.
    func appendJoinRows(_ join: StoreLayout.JoinTable, sources: [Int64], destination: ObjectID) throws
}

/// A side of a join table's row: `Z_SRC` (the storing side) or `Z_DST`.
enum SQLJoinSide {
    case source
    case destination

    /// The column that holds this side's key.
    var column: String {
        switch self {
        case .source: return "Z_SRC"
        case .destination: return "Z_DST"
        }
    }

    /// The side across.
    var other: SQLJoinSide { self == .source ? .destination : .source }
}

/// What a versioned update writes: the columns of an entity's changed properties. Updates of
/// one shape share their statement text; ``id`` numbers the shapes of one save from 0, so a
/// back end can keep its text for a shape in an array.
struct SQLUpdateShape {
    /// This shape's number within its save.
    let id: Int
    /// The entity updated.
    let entity: Int
    /// The slots written, in column order.
    let slots: [RowSlots.Slot]
}
