import Foundation
import GRDB

/// Builds the ``ForeignSource`` that presents a Core Data store's tables in Quarry's layout of
/// a model: one `Z<ROOT>` table per inheritance tree told apart by `Z_ENT`, property columns
/// matched by name (``CoreDataStoreColumnMatcher``), to-many relationships through their
/// inverse's key, `Z_FOK_` order columns, and `Z_<n><NAME>` join tables.
///
/// What cannot be found (a missing table, a property without a column, a relationship without
/// a join table) reads as empty or `NULL`, with a warning naming it.
struct CoreDataStoreSource {
    let model: ManagedObjectModel
    let schema: CoreDataStoreSchema
    /// Core Data's entity number of each Quarry entity index (absent: not in `Z_PRIMARYKEY`).
    let numbers: [Int: Int]
    var warnings: [String] = []
    var source = ForeignSource()
    /// The file's column chosen for each value key (to pair a to-one's entity column with the
    /// same numbering as its key column).
    var chosenColumns: [StoreLayout.ColumnKey: String] = [:]
    /// The order columns of ordered to-manys, by the root whose table holds them.
    private let orderColumns: [Int: [StoreLayout.ColumnRequest]]

    init(model: ManagedObjectModel, schema: CoreDataStoreSchema) {
        self.model = model
        self.schema = schema
        self.orderColumns = StoreLayout.orderColumnRequests(model: model)
        var numbers: [Int: Int] = [:]
        for e in model.entities {
            if let number = schema.entity(named: e.name)?.number { numbers[e.index] = number }
        }
        self.numbers = numbers
    }

    /// Fills ``source`` for every entity except `skipping` (entities whose source the caller
    /// provides, such as the history entities).
    mutating func build(_ db: Database, skipping: Set<String> = []) throws {
        for root in model.entities where root.index == root.rootIndex && !skipping.contains(root.name) {
            try buildTable(root, db)
        }
        for e in model.entities where !skipping.contains(e.name) {
            for r in e.definition.relationships where r.isToMany {
                buildJoin(e, r)
            }
        }
    }

    // MARK: Tables and columns

    private mutating func buildTable(_ root: EntityDescription, _ db: Database) throws {
        let tree = root.selfAndDescendantIndices
        let names = tree.map { model.entities[$0].name }.joined(separator: ", ")
        let wanted = CoreDataStoreSchema.tableName(ofRoot: root.name)
        guard let table = schema.tableName(wanted), let columns = schema.columns(of: table) else {
            warnings.append("entity \(names): table \(wanted) is missing from the store; shown empty")
            return
        }
        let upper = Set(columns.map { $0.name.uppercased() })
        guard upper.contains("Z_PK") else {
            warnings.append("entity \(names): table \(table) has no Z_PK column; shown empty")
            return
        }
        let treeNumbers = tree.compactMap { numbers[$0] }
        var t = ForeignSource.Table(from: "main.\(sqlIdentifier(table)) AS s", primaryKey: "s.Z_PK")
        if upper.contains("Z_OPT") { t.version = "s.Z_OPT" }
        if upper.contains("Z_ENT") {
            if treeNumbers.isEmpty {
                warnings.append("entity \(names): not in Z_PRIMARYKEY; shown empty")
                t.filter = "0"
            } else {
                t.filter = "s.Z_ENT IN (\(treeNumbers.map(String.init).joined(separator: ", ")))"
            }
            if root.hasSubentities { t.entity = entityCase("s.Z_ENT", among: tree) }
        } else if root.hasSubentities {
            warnings.append("entity \(names): table \(table) has no Z_ENT column; every row is read as \(root.name)")
        }
        source.tables[root.index] = t
        try buildColumns(root, table: table, columns: columns, db)
    }

    /// `CASE <column> WHEN <number> THEN <index> … END` over the entities at `indices`.
    func entityCase(_ column: String, among indices: [Int]) -> String {
        let whens = indices.compactMap { i in numbers[i].map { "WHEN \($0) THEN \(i)" } }
        guard !whens.isEmpty else { return "NULL" }
        return "CASE \(column) \(whens.joined(separator: " ")) END"
    }

    private mutating func buildColumns(_ root: EntityDescription, table: String, columns: [CoreDataStoreSchema.Column], _ db: Database) throws {
        let matcher = CoreDataStoreColumnMatcher(columns: columns)
        let requests = StoreLayout.columnRequests(root: root, model: model, orderColumns: orderColumns[root.index] ?? [])
        // Exact names of every property here: a property's own column is never another's variant.
        var exact = Set<String>()
        for request in requests {
            switch request.key {
            case .attribute(_, let name), .toOneKey(_, let name): exact.insert("Z" + name.uppercased())
            default: break
            }
        }
        // Value columns (attributes and to-one keys), grouped by name: siblings declaring the
        // same name share Core Data's numbered columns between them.
        var groups: [String: [StoreLayout.ColumnRequest]] = [:]
        var order: [String] = []
        for request in requests {
            let name: String
            switch request.key {
            case .attribute(_, let n), .toOneKey(_, let n): name = n.uppercased()
            default: continue
            }
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(request)
        }
        var used = Set<String>()
        for name in order {
            try assign(groups[name]!, table: table, matcher: matcher, exact: exact, used: &used, db)
        }
        for request in requests {
            switch request.key {
            case .toOneEntity(let entity, let relationship):
                buildEntityColumn(request.key, declaring: entity, relationship: relationship, matcher: matcher, exact: exact, used: &used)
            case .order(_, let inverse):
                if let column = matcher.orderCandidates(inverse).first(where: { !used.contains($0.name) }) {
                    used.insert(column.name)
                    source.columns[request.key] = "s.\(sqlIdentifier(column.name))"
                } else {
                    warnings.append("table \(table): no Z_FOK_\(inverse.uppercased()) order column; the ordered relationship is read in key order")
                }
            default: continue
            }
        }
        if columns.contains(where: { $0.name.uppercased() == "Z_ENT" }) { combineShared(requests) }
    }

    /// Siblings' properties of one name share one layout column (whose view takes the first
    /// key's expression), while Core Data gave each its own numbered column: each such key gets
    /// one expression choosing by `Z_ENT`, so the shared column reads every row's own value.
    private mutating func combineShared(_ requests: [StoreLayout.ColumnRequest]) {
        var groups: [String: [StoreLayout.ColumnRequest]] = [:]
        for request in requests { groups[request.natural + "\u{0}" + request.sqlType, default: []].append(request) }
        for group in groups.values where group.count > 1 {
            let branches = group.compactMap { request -> (StoreLayout.ColumnRequest, String)? in
                source.columns[request.key].map { (request, $0) }
            }
            guard Set(branches.map(\.1)).count > 1 else { continue }
            let combined = "CASE " + branches.map { request, expression in
                "WHEN s.Z_ENT IN (\(request.users.compactMap { numbers[$0] }.sorted().map(String.init).joined(separator: ", "))) THEN \(expression)"
            }.joined(separator: " ") + " END"
            for (request, _) in branches { source.columns[request.key] = combined }
        }
    }

    /// Chooses the column of each request of one name group. With several siblings, each takes
    /// the first free candidate that holds values only in rows of its own entities (checked on
    /// the data), else the first free one.
    private mutating func assign(_ group: [StoreLayout.ColumnRequest], table: String, matcher: CoreDataStoreColumnMatcher,
                                 exact: Set<String>, used: inout Set<String>, _ db: Database) throws {
        let sorted = group.sorted { minNumber($0.users) < minNumber($1.users) }
        var chosen: [(request: StoreLayout.ColumnRequest, expression: String)] = []
        for request in sorted {
            let name: String
            var type: AttributeType = .integer64
            switch request.key {
            case .attribute(let entity, let n):
                name = n
                type = model.entities[entity].attribute(n)?.type ?? .binary
            case .toOneKey(_, let n):
                name = n
            default: continue
            }
            var candidates = matcher.valueCandidates(name, excluded: exact.subtracting(["Z" + name.uppercased()]))
                .filter { !used.contains($0.name) }
            candidates = candidates.filter { CoreDataStoreColumnMatcher.fits($0.type, type) }
                + candidates.filter { !CoreDataStoreColumnMatcher.fits($0.type, type) }
            if sorted.count > 1, candidates.count > 1 {
                var consistent: [CoreDataStoreSchema.Column] = []
                for c in candidates where try holdsOnly(c.name, of: request.users, table: table, db) { consistent.append(c) }
                candidates = consistent + candidates.filter { c in !consistent.contains(c) }
            }
            guard let column = candidates.first else {
                let owner = request.owner
                warnings.append("\(owner).\(name): no column for it in table \(table); read as empty")
                continue
            }
            used.insert(column.name)
            chosenColumns[request.key] = column.name
            let value = "s.\(sqlIdentifier(column.name))"
            if case .attribute = request.key {
                chosen.append((request, Self.valueExpression(value, type: type)))
            } else {
                chosen.append((request, value))
            }
        }
        for (request, expression) in chosen { source.columns[request.key] = expression }
    }

    private func minNumber(_ users: Set<Int>) -> Int { users.compactMap { numbers[$0] }.min() ?? Int.max }

    /// Whether `column` is `NULL` in every row of entities other than `users`.
    private func holdsOnly(_ column: String, of users: Set<Int>, table: String, _ db: Database) throws -> Bool {
        let list = users.compactMap { numbers[$0] }.map(String.init).joined(separator: ", ")
        let sql = "SELECT NOT EXISTS (SELECT 1 FROM main.\(sqlIdentifier(table)) WHERE \(sqlIdentifier(column)) IS NOT NULL AND Z_ENT NOT IN (\(list)))"
        return try Bool.fetchOne(db, sql: sql) ?? true
    }

    /// The to-one's entity column as a Quarry entity index: Core Data's `Z<n>_<REL>` column
    /// mapped through the entity numbers, else a lookup of the destination row's `Z_ENT`.
    private mutating func buildEntityColumn(_ key: StoreLayout.ColumnKey, declaring entity: Int, relationship: String,
                                            matcher: CoreDataStoreColumnMatcher, exact: Set<String>, used: inout Set<String>) {
        guard let r = model.entities[entity].relationship(relationship), let destination = model.entity(named: r.destination) else { return }
        let indices = destination.selfAndDescendantIndices
        var candidates = matcher.entityCandidates(relationship, excluded: exact).filter { !used.contains($0.name) }
        if let keyColumn = chosenColumns[.toOneKey(entity: entity, relationship: relationship)] {
            // `ZACCOUNT2` pairs with `Z9_ACCOUNT2`.
            let suffix = keyColumn.uppercased().dropFirst(1 + relationship.uppercased().count)
            candidates = candidates.filter { $0.name.uppercased().hasSuffix("_" + relationship.uppercased() + suffix) }
                + candidates.filter { !$0.name.uppercased().hasSuffix("_" + relationship.uppercased() + suffix) }
        }
        if let column = candidates.first {
            used.insert(column.name)
            source.columns[key] = entityCase("s.\(sqlIdentifier(column.name))", among: indices)
            return
        }
        guard let keyExpression = source.columns[.toOneKey(entity: entity, relationship: relationship)],
              let table = schema.tableName(CoreDataStoreSchema.tableName(ofRoot: model.entities[destination.rootIndex].name)) else { return }
        source.columns[key] = "(SELECT \(entityCase("d.Z_ENT", among: indices)) FROM main.\(sqlIdentifier(table)) AS d WHERE d.Z_PK = \(keyExpression))"
    }

    /// `column` in Quarry's stored form for `type`: UUIDs from Core Data's 16 bytes to their
    /// uppercase `uuidString`, decimals as text; everything else is already Quarry's form
    /// (dates as seconds since 2001, booleans 0/1, binary and transformables as bytes).
    static func valueExpression(_ column: String, type: AttributeType) -> String {
        switch type {
        case .uuid:
            let parts = [(1, 8), (9, 4), (13, 4), (17, 4), (21, 12)].map { "substr(hex(\(column)), \($0.0), \($0.1))" }
            return "CASE WHEN typeof(\(column)) = 'blob' AND length(\(column)) = 16 THEN \(parts.joined(separator: " || '-' || ")) ELSE \(column) END"
        case .decimal, .uri:
            return "CASE WHEN typeof(\(column)) IN ('integer', 'real', 'blob') THEN CAST(\(column) AS TEXT) ELSE \(column) END"
        default:
            return column
        }
    }
}
