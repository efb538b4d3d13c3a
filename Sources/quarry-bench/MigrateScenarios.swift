import Foundation
import Quarry

/// `indexedRowModel` changed by `change` (applied to the `Row` entity's definition).
private func changedRowModel(_ change: (inout EntityDefinition) -> Void) throws -> ManagedObjectModel {
    var definition = indexedRowModel.definition
    change(&definition.entities[0])
    return try ManagedObjectModel(definition)
}

/// A fresh copy of `source` at `name` in `dir` (with no log beside it).
private func copyStore(_ source: URL, to name: String, in dir: URL) throws -> URL {
    let url = dir.appendingPathComponent(name)
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    try FileManager.default.copyItem(at: source, to: url)
    return url
}

/// Scenario `migrate-add`: adding an optional attribute to a 1,000,000-row store through
/// `SQLiteStore.migrate` (open, plan, `ALTER TABLE … ADD COLUMN`, new metadata, one transaction)
/// vs raw `ALTER TABLE ADD COLUMN` in a transaction on a fresh connection, on copies of the same
/// store. Each round adds one more attribute on both sides; best of the rounds. Also at a tenth
/// of the rows, to show the time does not grow with rows.
func runMigrateAddScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let rounds = args.int("rounds", default: 5)
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    print("migrate-add: add an optional attribute to \(n) rows (best of \(rounds))")
    var results: [Int: (quarry: Double, raw: Double)] = [:]
    for rows in [n / 10, n] {
        let source = dir.appendingPathComponent("source-\(rows).sqlite")
        try makeIndexedRowStore(n: rows, url: source)
        let quarryURL = try copyStore(source, to: "quarry.sqlite", in: dir)
        let rawURL = try copyStore(source, to: "raw.sqlite", in: dir)
        var quarry = Double.infinity, raw = Double.infinity
        var added: [String] = []
        for round in 1...rounds {
            added.append("extra\(round)")
            let target = try changedRowModel { entity in
                for name in added { entity.attributes.append(AttributeDescription(name: name, type: .string)) }
            }
            quarry = min(quarry, try measure { try SQLiteStore.migrate(url: quarryURL, to: target) })
            raw = min(raw, try measure {
                let db = try RawDatabase(url: rawURL)
                try db.exec("BEGIN IMMEDIATE; ALTER TABLE \"Row\" ADD COLUMN \"extra\(round)\" TEXT; COMMIT")
            })
        }
        let stored = try SQLiteStore.readMetadata(url: quarryURL).model
        guard stored.entity(named: "Row")?.attribute("extra\(rounds)") != nil else { throw BenchError.check("the migrated store lacks extra\(rounds)") }
        print("  rows \(rows): quarry migrate \(String(format: "%.2f", quarry * 1000)) ms, raw ALTER TABLE \(String(format: "%.2f", raw * 1000)) ms")
        results[rows] = (quarry, raw)
    }
    let big = results[n]!, small = results[n / 10]!
    print("  growth with rows (quarry time at \(n) / at \(n / 10)): \(String(format: "%.2f", big.quarry / small.quarry))")
    ratio("migrate-add", big.raw / big.quarry)
}

/// Scenario `migrate-copy`: on a 1,000,000-row store, (1) a rename plus an optional → required
/// change with a default (Quarry renames the column in place and fills the defaults) and (2) an
/// integer → double type change (Quarry copies the table), each vs raw SQL copying the table in
/// one transaction (`CREATE TABLE …; INSERT INTO … SELECT …; DROP TABLE; ALTER TABLE … RENAME`,
/// plus the index the table had). Best of the rounds, each on fresh copies.
func runMigrateCopyScenario(_ args: BenchArguments) throws {
    let n = args.int("n", default: 1_000_000)
    let rounds = args.int("rounds", default: 3)
    let dir = try benchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let source = dir.appendingPathComponent("source.sqlite")
    try makeIndexedRowStore(n: n, url: source)
    print("migrate-copy: \(n) rows (best of \(rounds))")

    let renamed = try changedRowModel { entity in
        let c = entity.attributes.firstIndex { $0.name == "c" }!
        entity.attributes[c].name = "label"
        entity.attributes[c].renamingIdentifier = "c"
        let b = entity.attributes.firstIndex { $0.name == "b" }!
        entity.attributes[b].isOptional = false
        entity.attributes[b].defaultValue = .double(0)
    }
    let retyped = try changedRowModel { entity in
        let a = entity.attributes.firstIndex { $0.name == "a" }!
        entity.attributes[a].type = .double
    }
    let columns = "Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER NOT NULL, Z_OPT INTEGER NOT NULL"
    let cases: [(name: String, model: ManagedObjectModel, raw: String)] = [
        ("rename + required", renamed, """
            BEGIN IMMEDIATE;
            CREATE TABLE "Row_new" (\(columns), "a" INTEGER, "b" REAL, "d" INTEGER, "e" REAL, "f" TEXT, "label" TEXT);
            INSERT INTO "Row_new" SELECT Z_PK, Z_ENT, Z_OPT, a, COALESCE(b, 0.0), d, e, f, c FROM "Row";
            DROP TABLE "Row"; ALTER TABLE "Row_new" RENAME TO "Row";
            CREATE INDEX "Row_a_index" ON "Row" ("a");
            COMMIT
            """),
        ("integer → double", retyped, """
            BEGIN IMMEDIATE;
            CREATE TABLE "Row_new" (\(columns), "a" REAL, "b" REAL, "c" TEXT, "d" INTEGER, "e" REAL, "f" TEXT);
            INSERT INTO "Row_new" SELECT Z_PK, Z_ENT, Z_OPT, CAST(a AS REAL), b, c, d, e, f FROM "Row";
            DROP TABLE "Row"; ALTER TABLE "Row_new" RENAME TO "Row";
            CREATE INDEX "Row_a_index" ON "Row" ("a");
            COMMIT
            """),
    ]
    for (index, scenario) in cases.enumerated() {
        var quarry = Double.infinity, raw = Double.infinity
        var strategy = ""
        for _ in 0..<rounds {
            let quarryURL = try copyStore(source, to: "quarry.sqlite", in: dir)
            var plan: MigrationPlan?
            quarry = min(quarry, try measure { plan = try SQLiteStore.migrate(url: quarryURL, to: scenario.model) })
            strategy = plan?.entities.first?.strategy.rawValue ?? "?"
            let rawURL = try copyStore(source, to: "raw.sqlite", in: dir)
            raw = min(raw, try measure { try RawDatabase(url: rawURL).exec(scenario.raw) })
            let store = try SQLiteStore(url: quarryURL, model: scenario.model)
            guard try store.count(for: StoreQuery(entity: scenario.model.entities[0], includesSubentities: false)) == n else {
                throw BenchError.check("\(scenario.name): rows lost")
            }
        }
        print("  \(scenario.name) (quarry: \(strategy)): quarry \(String(format: "%.3f", quarry)) s, raw copy \(String(format: "%.3f", raw)) s")
        ratio(index == 0 ? "migrate-copy" : "migrate-copy-type", raw / quarry)
    }
}
