import Foundation

/// Decides whether changes to a schema Quarry did not make can be followed live through
/// logical replication, and finds (or makes) the publication to follow.
///
/// Live needs: the server's `wal_level = logical`; a role that may replicate (`REPLICATION`
/// or superuser) and that `pg_hba.conf` lets make a replication connection; and a publication
/// covering every table of the schema that has a primary key. An existing publication that
/// covers them (one `FOR ALL TABLES` included) is used as it is; otherwise Quarry makes
/// `quarry_<schema>` for them, which needs the tables' owner (or adds the missing tables to it).
/// A table without a primary key is never put in a publication, since PostgreSQL would then
/// refuse every `UPDATE` and `DELETE` of other programs on it: its changes, and those behind
/// views, show on a refresh.
enum PostgreSQLReplicationSetup {
    /// What the check found.
    enum Outcome: Equatable {
        /// Follow `publication`.
        case live(publication: String)
        /// Not live, and why (with what would make it so).
        case notLive(String)
    }

    /// Checks `store`'s server and schema (`schema` read from it).
    static func prepare(store: PostgreSQLStore, schema: ForeignPostgreSQLSchema) -> Outcome {
        let url = store.storeURL
        let tables = schema.relations.filter { ["r", "p"].contains($0.value.relkind) && !$0.value.keyColumns.isEmpty }.keys.sorted()
        do {
            let facts = try store.read { connection in
                try connection.query("""
                    SELECT current_setting('wal_level'), (SELECT rolsuper OR rolreplication FROM pg_roles WHERE rolname = current_user)
                    """)[0]
            }
            let walLevel = try facts[0].decode(String.self)
            guard walLevel == "logical" else {
                return .notLive("the server's wal_level is '\(walLevel)'; with wal_level = logical (postgresql.conf, then a restart) changes show live")
            }
            guard try facts[1].decode(Bool?.self) == true else {
                return .notLive("the role \(url.user) may not replicate; after ALTER ROLE \(url.user) REPLICATION (by a superuser) changes show live")
            }
            guard !tables.isEmpty else {
                return .notLive("no table of schema \(url.schema) has a primary key, which following changes needs")
            }
            let own = "quarry_" + PostgreSQLStore.channel(schema: url.schema).dropFirst("quarry_".count)
            var b = PGBindings()
            b.append(url.schema)
            b.append(tables)
            b.append(own)
            let found = try store.read { connection in
                try connection.query("""
                    SELECT p.pubname::text FROM pg_publication p
                    WHERE p.pubinsert AND p.pubupdate AND p.pubdelete AND (p.puballtables OR NOT EXISTS (
                      SELECT 1 FROM unnest($2::text[]) AS t(name) WHERE NOT EXISTS (
                        SELECT 1 FROM pg_publication_tables pt
                        WHERE pt.pubname = p.pubname AND pt.schemaname = $1 AND pt.tablename = t.name)))
                    ORDER BY (p.pubname = $3) DESC, p.pubname LIMIT 1
                    """, b).first.map { try $0[0].decode(String.self) }
            }
            if let found { return .live(publication: found) }
            return makePublication(own, tables: tables, store: store)
        } catch {
            return .notLive("its server could not be asked (\(error))")
        }
    }

    /// Makes publication `name` for `tables` (or adds those it lacks), on a session of its own
    /// (the store's are read-only).
    private static func makePublication(_ name: String, tables: [String], store: PostgreSQLStore) -> Outcome {
        let url = store.storeURL
        let list = tables.map { "\(sqlIdentifier(url.schema)).\(sqlIdentifier($0))" }.joined(separator: ", ")
        do {
            let connection = try PGConnection(parameters: url.connectionParameters)
            let exists = try !connection.query("SELECT 1 FROM pg_publication WHERE pubname = $1", PostgreSQLStore.bindings(name)).isEmpty
            if exists {
                var b = PGBindings()
                b.append(name)
                b.append(url.schema)
                b.append(tables)
                let missing = try connection.query("""
                    SELECT t.name FROM unnest($3::text[]) AS t(name) WHERE NOT EXISTS (
                      SELECT 1 FROM pg_publication_tables pt WHERE pt.pubname = $1 AND pt.schemaname = $2 AND pt.tablename = t.name)
                    """, b).map { try $0[0].decode(String.self) }
                if !missing.isEmpty {
                    _ = try connection.execute("ALTER PUBLICATION \(sqlIdentifier(name)) ADD TABLE " +
                                               missing.map { "\(sqlIdentifier(url.schema)).\(sqlIdentifier($0))" }.joined(separator: ", "))
                }
            } else {
                _ = try connection.execute("CREATE PUBLICATION \(sqlIdentifier(name)) FOR TABLE \(list)")
            }
            return .live(publication: name)
        } catch {
            return .notLive("no publication covers the tables of schema \(url.schema) and the role \(url.user) cannot make one " +
                            "(\(error)); after CREATE PUBLICATION \(sqlIdentifier(name)) FOR TABLE \(list) (by their owner) changes show live")
        }
    }
}
