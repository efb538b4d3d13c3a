/// What each row statement of a store binds, per entity, in the order every SQL back end writes
/// its columns: built once per store so the save path does no planning per row. The SQL text
/// that goes with it is each back end's own (``SQLiteRowStatements``, the PostgreSQL layout's
/// slot columns).
struct RowSlots: Sendable {
    /// What to bind at one parameter of a row statement.
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

    /// Per entity: the slots of every column it writes (an insert's or an overwrite's), by
    /// property index (attributes, then to-one relationships).
    let all: [[Slot]]
    /// Per entity: the slots of every column, by property index (attributes, then relationships).
    let slotsByProperty: [[Int: [Slot]]]
    /// Per entity: its table's name.
    let tableName: [String]
    /// Per entity: the column each slot writes (the layout's names, which may differ from the
    /// property's name, see ``StoreLayout/nameColumns(_:)``).
    let columnNames: [[Slot: String]]

    init(layout: StoreLayout, model: ManagedObjectModel) {
        var all: [[Slot]] = []
        var slotsByProperty: [[Int: [Slot]]] = []
        var tableName: [String] = []
        var columnNames: [[Slot: String]] = []
        for e in model.entities {
            let entityLayout = layout.entities[e.index]
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
            all.append(slots)
            columnNames.append(names)
            slotsByProperty.append(byProperty)
            tableName.append(layout.tables[entityLayout.tableIndex].name)
        }
        self.all = all
        self.slotsByProperty = slotsByProperty
        self.tableName = tableName
        self.columnNames = columnNames
    }

    /// The column a slot of `entity` writes, as the layout named it.
    static func columnName(_ slot: Slot, entity: EntityDescription, layout: StoreLayout) -> String {
        switch slot {
        case .attribute(let i), .transformed(let i, _): return layout.attributeColumn(i, ofEntity: entity.index)!
        case .toOneKey(let r): return layout.toOneKeyColumn(r, ofEntity: entity.index)
        case .toOneEntity(let r): return layout.toOneEntityColumn(r, ofEntity: entity.index)!
        }
    }

    /// The slots a versioned update of the properties in `changed` writes (to-many changes add
    /// no column, but the update still bumps the version).
    func changed(_ changed: PropertyMask, entity: Int) -> [Slot] {
        let byProperty = slotsByProperty[entity]
        return changed.indices.flatMap { byProperty[$0] ?? [] }
    }
}
