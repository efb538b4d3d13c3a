/// The SQLite text of every statement an ``SQLiteStore`` runs per row, built once per store
/// from its ``RowSlots`` (so the save path does no string building per row), with the slots
/// each binds.
///
/// Every statement here runs inside a save's transaction, which rolls back whole when any
/// statement fails, so each is written `OR FAIL`: SQLite then keeps no statement journal for
/// it. Under the default (`OR ABORT`) a statement writing several rows of a table with an
/// index journals each page it changes, to undo itself alone: 100,000 inserts into the demo's
/// `Ticker` table, 40 a statement, took 0.50–0.62 s so against 0.34–0.39 s `OR FAIL`.
struct SQLiteRowStatements: Sendable {
    /// A statement and its slots; fixed arguments (`Z_PK`, `Z_ENT`, `Z_OPT`) are documented per use.
    struct Plan: Sendable {
        var sql: String
        var slots: [RowSlots.Slot]
    }

    /// What each statement binds, per entity.
    let slots: RowSlots
    /// Per entity: `INSERT OR FAIL INTO T (Z_PK, Z_ENT, Z_OPT, <slots>) VALUES (?, ?, ?, …)`.
    let insert: [Plan]
    /// Per entity: `UPDATE OR FAIL T SET <slots>, Z_OPT = ? WHERE Z_PK = ?` (every column of the entity).
    let overwrite: [Plan]
    /// Per table: `SELECT Z_PK, Z_ENT, Z_OPT, <every column> FROM T` (append a `WHERE`).
    let selectRow: [String]

    init(layout: StoreLayout, model: ManagedObjectModel) {
        let slots = RowSlots(layout: layout, model: model)
        self.slots = slots
        var insert: [Plan] = []
        var overwrite: [Plan] = []
        for e in model.entities.indices {
            let quoted = slots.all[e].map { sqlIdentifier(slots.columnNames[e][$0]!) }
            let t = sqlIdentifier(slots.tableName[e])
            insert.append(Plan(
                sql: "INSERT OR FAIL INTO \(t) (Z_PK, Z_ENT, Z_OPT\(quoted.map { ", " + $0 }.joined())) VALUES (?, ?, ?\(String(repeating: ", ?", count: quoted.count)))",
                slots: slots.all[e]))
            overwrite.append(Plan(
                sql: "UPDATE OR FAIL \(t) SET \(quoted.map { $0 + " = ?, " }.joined())Z_OPT = ? WHERE Z_PK = ?", slots: slots.all[e]))
        }
        self.insert = insert
        self.overwrite = overwrite
        self.selectRow = layout.tables.map { table in
            "SELECT Z_PK, Z_ENT, Z_OPT\(table.columns.map { ", " + sqlIdentifier($0.name) }.joined()) FROM \(sqlIdentifier(table.name))"
        }
    }

    /// `INSERT OR FAIL INTO T (Z_PK, Z_ENT, Z_OPT, <slots>) VALUES (…), (…), …` writing
    /// `rows` rows of entity `e` (``insert`` is the one-row text).
    func insert(entity e: Int, rows: Int) -> String {
        precondition(rows >= 1, "an insert writes at least one row")
        let one = insert[e]
        guard rows > 1 else { return one.sql }
        // The one-row text ends with its row of parameters: the others follow it.
        let row = "(?, ?, ?" + String(repeating: ", ?", count: one.slots.count) + ")"
        return one.sql + String(repeating: ", " + row, count: rows - 1)
    }

    /// `UPDATE OR FAIL T SET <columns of slots>, Z_OPT = Z_OPT + 1 WHERE Z_PK = ? AND Z_OPT = ?` for
    /// entity `e`.
    func versionedUpdate(entity e: Int, slots written: [RowSlots.Slot]) -> Plan {
        let names = slots.columnNames[e]
        let sets = written.map { sqlIdentifier(names[$0]!) + " = ?, " }.joined()
        return Plan(sql: "UPDATE OR FAIL \(sqlIdentifier(slots.tableName[e])) SET \(sets)Z_OPT = Z_OPT + 1 WHERE Z_PK = ? AND Z_OPT = ?",
                    slots: written)
    }
}
