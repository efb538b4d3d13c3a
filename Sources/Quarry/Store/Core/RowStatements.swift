/// The SQL text of every statement the store runs per row, built once per store so the save
/// path does no string building per row, with the bind plan that goes with each.
struct RowStatements: Sendable {
    /// What to bind at one `?` of a row statement.
    enum Slot: Sendable, Hashable {
        /// The value of attribute `index`.
        case attribute(Int)
        /// The value of transformable attribute `index`, as the bytes its transformer makes
        /// (the named one, ``PropertyListTransformer`` for `nil`).
        case transformed(Int, transformer: String?)
        /// The destination primary key of to-one relationship `index` (NULL when empty).
        case toOneKey(Int)
        /// The destination entity index of to-one relationship `index` (NULL when empty).
        case toOneEntity(Int)
    }

    /// A statement and its slots; fixed arguments (`Z_PK`, `Z_OPT`) are documented per use.
    struct Plan: Sendable {
        var sql: String
        var slots: [Slot]
    }

    /// Per entity: `INSERT INTO T (Z_PK, Z_ENT, Z_OPT, <slots>) VALUES (?, ?, ?, …)`.
    let insert: [Plan]
    /// Per entity: `UPDATE T SET <slots>, Z_OPT = ? WHERE Z_PK = ?` (every column of the entity).
    let overwrite: [Plan]
    /// Per entity: the slots of every column, by property index (attributes, then relationships).
    let slotsByProperty: [[Int: [Slot]]]
    /// Per table: `SELECT Z_PK, Z_ENT, Z_OPT, <every column> FROM T` (append a `WHERE`).
    let selectRow: [String]
    /// Per entity: its table's name.
    let tableName: [String]
    /// Per entity: the column each slot writes (the layout's names, which may differ from the
    /// property's name, see ``StoreLayout/nameColumns(_:)``).
    let columnNames: [[Slot: String]]

    init(layout: StoreLayout, model: ManagedObjectModel) {
        var insert: [Plan] = []
        var overwrite: [Plan] = []
        var slotsByProperty: [[Int: [Slot]]] = []
        var tableName: [String] = []
        var columnNames: [[Slot: String]] = []
        for e in model.entities {
            let entityLayout = layout.entities[e.index]
            let table = layout.tables[entityLayout.tableIndex]
            var byProperty: [Int: [Slot]] = [:]
            for (i, column) in entityLayout.attributeColumns.enumerated() where column != nil {
                let attribute = e.attributes[i]
                byProperty[i] = [attribute.type == .transformable ? .transformed(i, transformer: attribute.valueTransformerName) : .attribute(i)]
            }
            for (r, toOne) in entityLayout.toOne.enumerated() {
                guard let toOne else { continue }
                byProperty[e.attributes.count + r] = toOne.entity == nil ? [.toOneKey(r)] : [.toOneKey(r), .toOneEntity(r)]
            }
            let slots = byProperty.keys.sorted().flatMap { byProperty[$0]! }
            var names: [Slot: String] = [:]
            for slot in slots { names[slot] = Self.columnName(slot, entity: e, layout: layout) }
            columnNames.append(names)
            let quoted = slots.map { sqlIdentifier(names[$0]!) }
            let t = sqlIdentifier(table.name)
            insert.append(Plan(
                sql: "INSERT INTO \(t) (Z_PK, Z_ENT, Z_OPT\(quoted.map { ", " + $0 }.joined())) VALUES (?, ?, ?\(String(repeating: ", ?", count: quoted.count)))",
                slots: slots))
            overwrite.append(Plan(
                sql: "UPDATE \(t) SET \(quoted.map { $0 + " = ?, " }.joined())Z_OPT = ? WHERE Z_PK = ?", slots: slots))
            slotsByProperty.append(byProperty)
            tableName.append(table.name)
        }
        self.insert = insert
        self.overwrite = overwrite
        self.slotsByProperty = slotsByProperty
        self.tableName = tableName
        self.columnNames = columnNames
        self.selectRow = layout.tables.map { table in
            "SELECT Z_PK, Z_ENT, Z_OPT\(table.columns.map { ", " + sqlIdentifier($0.name) }.joined()) FROM \(sqlIdentifier(table.name))"
        }
    }

    /// The column a slot of `entity` writes, as the layout named it.
    static func columnName(_ slot: Slot, entity: EntityDescription, layout: StoreLayout) -> String {
        switch slot {
        case .attribute(let i), .transformed(let i, _): return layout.attributeColumn(i, ofEntity: entity.index)!
        case .toOneKey(let r): return layout.toOneKeyColumn(r, ofEntity: entity.index)
        case .toOneEntity(let r): return layout.toOneEntityColumn(r, ofEntity: entity.index)!
        }
    }

    /// `UPDATE T SET <changed columns>, Z_OPT = Z_OPT + 1 WHERE Z_PK = ? AND Z_OPT = ?` for the
    /// properties in `changed` (to-many changes add no column, but still bump the version).
    func versionedUpdate(entity: EntityDescription, changed: PropertyMask) -> Plan {
        let byProperty = slotsByProperty[entity.index]
        let slots = changed.indices.flatMap { byProperty[$0] ?? [] }
        let names = columnNames[entity.index]
        let sets = slots.map { sqlIdentifier(names[$0]!) + " = ?, " }.joined()
        return Plan(sql: "UPDATE \(sqlIdentifier(tableName[entity.index])) SET \(sets)Z_OPT = Z_OPT + 1 WHERE Z_PK = ? AND Z_OPT = ?",
                    slots: slots)
    }
}
