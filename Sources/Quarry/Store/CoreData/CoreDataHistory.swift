import Foundation

/// Core Data's persistent history (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`) as two
/// read-only entities: transactions with their time, author, bundle, process and context name
/// and their changes; each change with its entity's name, the changed object's primary key and
/// its type (`insert`, `update`, `delete`).
///
/// Conventions (confirmed against tools that read these tables): `ATRANSACTION.ZAUTHORTS`,
/// `ZBUNDLEIDTS`, `ZCONTEXTNAMETS`, `ZPROCESSIDTS` are keys into `ATRANSACTIONSTRING(Z_PK,
/// ZNAME)`, with plain-text twins `ZAUTHOR`… beside them; `ZTIMESTAMP` is seconds since 2001;
/// `ACHANGE.ZCHANGETYPE` is 0 insert, 1 update, 2 delete; `ZENTITY` is the entity number of
/// `Z_PRIMARYKEY`, `ZENTITYPK` the object's `Z_PK`, `ZTRANSACTIONID` the transaction's `Z_PK`.
enum CoreDataHistory {
    /// The names given to the two entities: `History` and `HistoryChange`, unless the app has
    /// an entity of either name; then `CoreDataHistory`/`CoreDataHistoryChange`, then
    /// `QuarryHistory…` and numbered variants.
    struct Names: Sendable, Hashable {
        var transaction: String
        var change: String
    }

    /// Whether the store has the three history tables.
    static func isPresent(in schema: CoreDataStoreSchema) -> Bool {
        ["ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"].allSatisfy { schema.tableName($0) != nil }
    }

    /// Names clashing with none of `taken`.
    static func names(avoiding taken: Set<String>) -> Names {
        var stems = ["History", "CoreDataHistory", "QuarryHistory"]
        stems += (2...99).map { "QuarryHistory\($0)" }
        let stem = stems.first { !taken.contains($0) && !taken.contains($0 + "Change") } ?? "QuarryHistory\(UUID().uuidString.prefix(8))"
        return Names(transaction: stem, change: stem + "Change")
    }

    /// The string properties of a transaction, with their interned and plain columns.
    static let strings: [(attribute: String, interned: String, plain: String)] = [
        ("author", "ZAUTHORTS", "ZAUTHOR"), ("bundleID", "ZBUNDLEIDTS", "ZBUNDLEID"),
        ("contextName", "ZCONTEXTNAMETS", "ZCONTEXTNAME"), ("processID", "ZPROCESSIDTS", "ZPROCESSID"),
    ]

    /// The two entity definitions.
    static func definitions(_ names: Names) -> [EntityDefinition] {
        [
            EntityDefinition(
                name: names.transaction,
                attributes: [AttributeDescription(name: "timestamp", type: .date)]
                    + strings.map { AttributeDescription(name: $0.attribute, type: .string) },
                relationships: [RelationshipDescription(name: "changes", destination: names.change, inverse: "transaction", isToMany: true)]),
            EntityDefinition(
                name: names.change,
                attributes: [
                    AttributeDescription(name: "entityName", type: .string),
                    AttributeDescription(name: "objectPrimaryKey", type: .integer64),
                    AttributeDescription(name: "changeType", type: .string),
                ],
                relationships: [RelationshipDescription(name: "transaction", destination: names.transaction, inverse: "changes")]),
        ]
    }

    /// Adds the history entities' tables and columns to `source`.
    static func addSource(to source: inout ForeignSource, model: ManagedObjectModel, names: Names, schema: CoreDataStoreSchema) {
        guard let transaction = model.entity(named: names.transaction), let change = model.entity(named: names.change),
              let transactions = schema.tableName("ATRANSACTION"), let changes = schema.tableName("ACHANGE"),
              let strings = schema.tableName("ATRANSACTIONSTRING") else { return }
        let transactionColumns = Set((schema.columns(of: transactions) ?? []).map { $0.name.uppercased() })
        let changeColumns = Set((schema.columns(of: changes) ?? []).map { $0.name.uppercased() })
        func column(_ name: String, in columns: Set<String>) -> String? { columns.contains(name) ? "s.\(name)" : nil }

        source.tables[transaction.index] = ForeignSource.Table(from: "main.\(sqlIdentifier(transactions)) AS s", primaryKey: "s.Z_PK")
        source.columns[.attribute(entity: transaction.index, name: "timestamp")] = column("ZTIMESTAMP", in: transactionColumns)
        for s in Self.strings {
            var parts: [String] = []
            if transactionColumns.contains(s.interned) {
                parts.append("(SELECT t.ZNAME FROM main.\(sqlIdentifier(strings)) AS t WHERE t.Z_PK = s.\(s.interned))")
            }
            if transactionColumns.contains(s.plain) { parts.append("s.\(s.plain)") }
            guard !parts.isEmpty else { continue }
            source.columns[.attribute(entity: transaction.index, name: s.attribute)] = parts.count == 1 ? parts[0] : "COALESCE(\(parts.joined(separator: ", ")))"
        }

        source.tables[change.index] = ForeignSource.Table(from: "main.\(sqlIdentifier(changes)) AS s", primaryKey: "s.Z_PK")
        if changeColumns.contains("ZENTITY") {
            let primaryKey = schema.tableName("Z_PRIMARYKEY").map { "(SELECT p.Z_NAME FROM main.\(sqlIdentifier($0)) AS p WHERE p.Z_ENT = s.ZENTITY)" }
            source.columns[.attribute(entity: change.index, name: "entityName")] = primaryKey.map { "COALESCE(\($0), CAST(s.ZENTITY AS TEXT))" } ?? "CAST(s.ZENTITY AS TEXT)"
        }
        source.columns[.attribute(entity: change.index, name: "objectPrimaryKey")] = column("ZENTITYPK", in: changeColumns)
        if changeColumns.contains("ZCHANGETYPE") {
            source.columns[.attribute(entity: change.index, name: "changeType")] =
                "CASE s.ZCHANGETYPE WHEN 0 THEN 'insert' WHEN 1 THEN 'update' WHEN 2 THEN 'delete' ELSE CAST(s.ZCHANGETYPE AS TEXT) END"
        }
        source.columns[.toOneKey(entity: change.index, relationship: "transaction")] = column("ZTRANSACTIONID", in: changeColumns)
    }
}
