import Foundation
import GRDB

extension CoreDataFixture {
    /// The `Z_ENT` numbers Core Data gives its persistent-history entities.
    public enum HistoryEntity {
        /// `ACHANGE` rows (`CHANGE` in `Z_PRIMARYKEY`).
        public static let change = 16001
        /// `ATRANSACTION` rows (`TRANSACTION`).
        public static let transaction = 16002
        /// `ATRANSACTIONSTRING` rows (`TRANSACTIONSTRING`).
        public static let transactionString = 16003
    }

    /// The persistent-history tables as Core Data declares them: transactions point at their
    /// author, bundle, context and process names in `ATRANSACTIONSTRING` (the `…TS` columns; the
    /// older text columns stay `NULL`), changes at their transaction and the changed row.
    static let historySchemaSQL = [
        "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB )",
        "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
        "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
        "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
        "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
        "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
        "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
        "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
    ]

    /// The history rows and their `Z_PRIMARYKEY` rows.
    func historyStatements(_ layout: CoreDataFixtureLayout, primaryKeys: [String: (entity: String, pk: Int64)]) throws(CoreDataFixtureError) -> [Statement] {
        guard !history.isEmpty else { return [] }
        var statements: [Statement] = []
        var strings: [String: Int64] = [:]
        func intern(_ s: String?) -> DatabaseValue {
            guard let s else { return .null }
            if let pk = strings[s] { return pk.databaseValue }
            let pk = Int64(strings.count + 1)
            strings[s] = pk
            statements.append(Statement(sql: "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)",
                                        arguments: [pk.databaseValue, HistoryEntity.transactionString.databaseValue, s.databaseValue]))
            return pk.databaseValue
        }
        var changePK: Int64 = 0
        for (i, transaction) in history.enumerated() {
            let pk = Int64(i + 1)
            let names = [transaction.author, transaction.bundleID, transaction.contextName, transaction.processID].map(intern)
            statements.append(Statement(
                sql: "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP) VALUES (?, ?, 1, ?, ?, ?, ?, ?)",
                arguments: [pk.databaseValue, HistoryEntity.transaction.databaseValue] + names
                    + [transaction.timestamp.timeIntervalSinceReferenceDate.databaseValue]
            ))
            for change in transaction.changes {
                let entity: String, objectPK: Int64
                switch change.target {
                case .object(let key):
                    guard let known = primaryKeys[key] else { throw .unknownObject(key, referencedBy: "history transaction \(pk)") }
                    (entity, objectPK) = known
                case .removed(let name, let removedPK):
                    guard layout.numbers[name] != nil else { throw .unknownEntity(name, referencedBy: "history transaction \(pk)") }
                    (entity, objectPK) = (name, removedPK)
                }
                changePK += 1
                statements.append(Statement(
                    sql: "INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) VALUES (?, ?, 1, ?, ?, ?, ?)",
                    arguments: [changePK.databaseValue, HistoryEntity.change.databaseValue, change.kind.rawValue.databaseValue,
                                layout.numbers[entity]!.databaseValue, objectPK.databaseValue, pk.databaseValue]
                ))
            }
        }
        for (number, name, max) in [(HistoryEntity.change, "CHANGE", changePK), (HistoryEntity.transaction, "TRANSACTION", Int64(history.count)),
                                    (HistoryEntity.transactionString, "TRANSACTIONSTRING", Int64(strings.count))] {
            statements.append(Statement(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, ?)",
                                        arguments: [number.databaseValue, name.databaseValue, max.databaseValue]))
        }
        return statements
    }
}
