/// How a store's tables, columns and indexes are named: the one rule, pure and deterministic,
/// so every open of a store recomputes the same names from the same model.
///
/// **Natural names first.** A root table is named after its root entity, a join table
/// `Z_<Entity>_<relationship>`, an attribute's or to-one's column after the property, a to-one's
/// entity column `<relationship>_ENT`, an order column `Z_FOK_<inverse>`, an index as in
/// ``schemaStatements(model:)``. Everything whose natural name is free keeps it, so a model
/// whose names never clashed is laid out exactly as before this rule existed.
///
/// **Fallbacks only for clashes.** Names clash when SQLite would take them for the same
/// identifier (ASCII case-insensitively, see ``LayoutNamespace``) or when they are Quarry's or
/// SQLite's own: tables `Z_METADATA`, `Z_PRIMARYKEY`, `Z_HISTORY…` and `sqlite_…`; columns `Z_PK`, `Z_ENT`,
/// `Z_OPT`. Once every natural name is claimed, in model order, each clashing one gets:
/// - a table: `Q_<natural>`;
/// - a column: `<DeclaringEntity>_<natural>` (so `Item_Name` beside `name`, `Book_code` for
///   a sibling's `code` of another type, `Item_Z_PK` for an attribute named `Z_PK`);
/// - an index: `<natural>_2`;
/// and, should that be taken too, the first free of `<fallback>_2`, `<fallback>_3`, …
///
/// **Sharing.** Sub-entities of one root share its table. Two properties of *different*
/// entities, neither inheriting the other (siblings), share one column when they have the same
/// exact name and the same SQL type, as they always did; with different SQL types each gets its
/// own column, so a sibling's `String` is never read back through an `INTEGER` column.
extension StoreLayout {
    /// Which property (or bookkeeping value) a column holds; the entity is the declaring one.
    enum ColumnKey: Hashable {
        case attribute(entity: Int, name: String)
        case toOneKey(entity: Int, relationship: String)
        case toOneEntity(entity: Int, relationship: String)
        /// The `Z_FOK_` order column of the ordered to-many whose inverse is this to-one.
        case order(entity: Int, inverse: String)

        /// The entity the column belongs to: it and its descendants use it.
        var entity: Int {
            switch self {
            case .attribute(let entity, _), .toOneKey(let entity, _), .toOneEntity(let entity, _), .order(let entity, _): return entity
            }
        }
    }

    /// One column a table needs, before naming.
    struct ColumnRequest {
        var key: ColumnKey
        /// The name it has when nothing clashes.
        var natural: String
        var sqlType: String
        var isForeignKey: Bool
        /// The declaring entity's name (prefix of the fallback name).
        var owner: String
        /// The entities whose rows use the column: the declaring entity and its descendants.
        var users: Set<Int>
    }

    /// Columns a table may not use for data: Quarry's own.
    static let reservedColumns = ["Z_PK", "Z_ENT", "Z_OPT"]
    /// Table names a model may not use: Quarry's bookkeeping tables and persistent history's
    /// (SQLite's own start `sqlite_`).
    static let reservedTables = ["Z_METADATA", "Z_PRIMARYKEY", "Z_HISTORYTRANSACTION", "Z_HISTORYCHANGE"]

    /// Names the data columns of one table (see the rule above); returns them in table order
    /// with each request's column position.
    static func nameColumns(_ requests: [ColumnRequest]) -> (columns: [Column], positions: [ColumnKey: Int]) {
        var namespace = LayoutNamespace(reserved: reservedColumns)
        var columns: [Column] = []
        var users: [Set<Int>] = []
        var positions: [ColumnKey: Int] = [:]
        var clashing: [ColumnRequest] = []
        var clashingKeys = Set<ColumnKey>()
        var columnsByName: [String: [Int]] = [:]  // lookups stay constant-time on wide tables
        for request in requests where positions[request.key] == nil && !clashingKeys.contains(request.key) {
            if let shared = columnsByName[request.natural]?.first(where: {
                columns[$0].sqlType == request.sqlType && users[$0].isDisjoint(with: request.users)
            }) {
                positions[request.key] = shared
                users[shared].formUnion(request.users)
            } else if namespace.claim(request.natural) {
                positions[request.key] = columns.count
                columnsByName[request.natural, default: []].append(columns.count)
                columns.append(Column(name: request.natural, sqlType: request.sqlType, isForeignKey: request.isForeignKey))
                users.append(request.users)
            } else {
                clashing.append(request)
                clashingKeys.insert(request.key)
            }
        }
        for request in clashing {
            positions[request.key] = columns.count
            let name = namespace.claimFallback("\(request.owner)_\(request.natural)")
            columns.append(Column(name: name, sqlType: request.sqlType, isForeignKey: request.isForeignKey))
        }
        return (columns, positions)
    }

    /// Names root tables and join tables from their natural names (roots first, in order), all
    /// in one namespace; returns the names in the same order.
    static func nameTables(_ naturals: [String]) -> [String] {
        var namespace = LayoutNamespace(reserved: reservedTables, reservedPrefixes: ["sqlite_"])
        var names: [String?] = naturals.map { namespace.claim($0) ? $0 : nil }
        for i in names.indices where names[i] == nil { names[i] = namespace.claimFallback("Q_" + naturals[i]) }
        return names.map { $0! }
    }

    /// Names indexes from their natural names, in a namespace holding every table name already;
    /// returns the names in the same order.
    func nameIndexes(_ naturals: [String]) -> [String] {
        var namespace = LayoutNamespace(reserved: Self.reservedTables + tables.map(\.name) + joinTables.map(\.name),
                                        reservedPrefixes: ["sqlite_"])
        var names: [String?] = naturals.map { namespace.claim($0) ? $0 : nil }
        for i in names.indices where names[i] == nil { names[i] = namespace.claimFallback(naturals[i]) }
        return names.map { $0! }
    }
}
