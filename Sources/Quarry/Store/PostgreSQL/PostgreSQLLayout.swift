import Foundation

/// Where everything lives in a PostgreSQL store: ``StoreLayout``'s tables and names (so both
/// stores are laid out alike), PostgreSQL types, shadow columns and key sequences.
struct PostgreSQLLayout: Sendable {
    /// What a data column stores, from ``StoreLayout/sqlType(_:)``.
    enum Kind: Sendable {
        /// `bigint`: integers, Booleans (0/1), foreign keys, `_ENT` and order columns.
        case integer
        /// `double precision`: doubles, floats, dates (seconds since 2001).
        case real
        /// `text COLLATE "C"`: strings, decimals, UUIDs, URIs, transformables (JSON).
        case text
        /// `bytea`.
        case blob

        init(sqlType: String) {
            switch sqlType {
            case "INTEGER": self = .integer
            case "REAL": self = .real
            case "TEXT": self = .text
            default: self = .blob
            }
        }

        var declaration: String {
            switch self {
            case .integer: return "bigint"
            case .real: return "double precision"
            case .text: return "text COLLATE \"C\""
            case .blob: return "bytea"
            }
        }
    }

    /// The shadow columns of a text column, in table order (see ``PostgreSQLStore``).
    static let shadowSuffixes = ["__F0", "__F1", "__F2", "__F3", "__STD"]

    /// One column a row statement writes for a slot: its name, kind and whether shadows follow.
    struct SlotColumn: Sendable {
        var slot: RowSlots.Slot
        var name: String
        var kind: Kind
        var shadowed: Bool
    }

    let base: StoreLayout
    /// What each row statement binds, per entity.
    let slots: RowSlots
    /// Per table, per data column: its kind.
    let kinds: [[Kind]]
    /// Per table, per data column: whether it has shadow columns (a text column that a string,
    /// UUID, URI or transformable attribute uses).
    let shadowed: [[Bool]]
    /// Per entity: the columns its rows write, slot by slot (``RowSlots/all``'s order).
    let slotColumns: [[SlotColumn]]

    init(model: ManagedObjectModel) {
        let base = StoreLayout.of(model)
        let slots = RowSlots(layout: base, model: model)
        self.base = base
        self.slots = slots
        let kinds = base.tables.map { $0.columns.map { Kind(sqlType: $0.sqlType) } }
        var shadowed = base.tables.map { $0.columns.map { _ in false } }
        for entity in model.entities {
            let layout = base.entities[entity.index]
            for (a, column) in layout.attributeColumns.enumerated() {
                guard let column, Self.isTextual(entity.attributes[a].type), kinds[layout.tableIndex][column] == .text else { continue }
                shadowed[layout.tableIndex][column] = true
            }
        }
        self.kinds = kinds
        self.shadowed = shadowed
        slotColumns = model.entities.map { entity in
            let layout = base.entities[entity.index]
            let table = base.tables[layout.tableIndex]
            return slots.all[entity.index].map { slot in
                let name = slots.columnNames[entity.index][slot]!
                let position = table.columns.firstIndex { $0.name == name }!
                return SlotColumn(slot: slot, name: name, kind: kinds[layout.tableIndex][position],
                                  shadowed: shadowed[layout.tableIndex][position])
            }
        }
    }

    /// Whether values of `type` compare as text (and so get shadow columns).
    static func isTextual(_ type: AttributeType) -> Bool {
        switch type {
        case .string, .uuid, .uri, .transformable: return true
        default: return false
        }
    }

    /// The key sequence of root table `table` (by index).
    func sequence(ofTable table: Int) -> String { "Z_PK_\(table)" }

    /// `name` quoted, as the store's queries quote it (``PostgreSQLDialect``).
    static func q(_ name: String) -> String { PostgreSQLDialect.identifier(name) }

    /// The column names a slot list writes, shadows included, quoted.
    static func columnList(_ columns: [SlotColumn]) -> [String] {
        columns.flatMap { c in [q(c.name)] + (c.shadowed ? shadowSuffixes.map { q(c.name + $0) } : []) }
    }

    /// The statements of a new store: metadata, root tables with shadows, sequences, join
    /// tables and indexes (as the SQLite store's, names prefixed by their table so they stay
    /// unique in the schema).
    func schemaStatements(model: ManagedObjectModel) -> [String] {
        let q = Self.q
        var sql = [#"CREATE TABLE "Z_METADATA" ("key" text COLLATE "C" PRIMARY KEY, "value" text)"#]
        for (t, table) in base.tables.enumerated() {
            sql.append(createTableStatement(t))
            sql.append(PostgreSQLKeyBlocks.createSequence(q(sequence(ofTable: t))))
            if table.entityIndices.count > 1 { sql.append("CREATE INDEX ON \(q(table.name)) (\"Z_ENT\")") }
            for column in table.columns where column.isForeignKey {
                sql.append("CREATE INDEX ON \(q(table.name)) (\(q(column.name)))")
            }
        }
        for entity in model.entities {
            let table = base.table(ofEntity: entity.index)
            let partial = entity.index == entity.rootIndex
                ? "" : " WHERE \"Z_ENT\" IN (\(entity.selfAndDescendantIndices.map(String.init).joined(separator: ", ")))"
            func column(_ name: String) -> String {
                q(entity.attributeIndex(name).flatMap { base.attributeColumn($0, ofEntity: entity.index) } ?? name)
            }
            let on = "ON \(q(table.name))"
            for a in entity.definition.ownStoredAttributes where a.isIndexed && !a.isTransient {
                sql.append("CREATE INDEX \(on) (\(column(a.name)))\(partial)")
            }
            for i in entity.definition.indexes {
                sql.append("CREATE INDEX \(on) (\(i.attributes.map(column).joined(separator: ", ")))\(partial)")
            }
            for keys in entity.definition.uniquenessConstraints {
                sql.append("CREATE UNIQUE INDEX \(on) (\(keys.map(column).joined(separator: ", ")))\(partial)")
            }
        }
        for join in base.joinTables {
            sql.append(createJoinTableStatement(join))
            sql.append("CREATE INDEX ON \(q(join.name)) (\"Z_DST\")")
        }
        return sql
    }

    /// `CREATE TABLE` for root table `t` (by index) with its shadow columns, named `name` (a
    /// migration's scratch name) or the table's own name.
    func createTableStatement(_ t: Int, name: String? = nil) -> String {
        let q = Self.q
        let table = base.tables[t]
        var columns = [#""Z_PK" bigint PRIMARY KEY"#, #""Z_ENT" bigint NOT NULL"#, #""Z_OPT" bigint NOT NULL"#]
        for (c, column) in table.columns.enumerated() {
            columns.append("\(q(column.name)) \(kinds[t][c].declaration)")
            if shadowed[t][c] {
                for suffix in Self.shadowSuffixes.dropLast() { columns.append("\(q(column.name + suffix)) text COLLATE \"C\"") }
                columns.append("\(q(column.name + "__STD")) bytea")
            }
        }
        return "CREATE TABLE \(q(name ?? table.name)) (\(columns.joined(separator: ", ")))"
    }

    /// `CREATE TABLE` for a join table.
    func createJoinTableStatement(_ join: StoreLayout.JoinTable) -> String {
        """
        CREATE TABLE \(Self.q(join.name)) ("Z_SRC" bigint NOT NULL, "Z_DST" bigint NOT NULL, \
        "Z_DST_ENT" bigint NOT NULL, "Z_ORD" bigint NOT NULL DEFAULT 0, PRIMARY KEY ("Z_SRC", "Z_DST"))
        """
    }
}
