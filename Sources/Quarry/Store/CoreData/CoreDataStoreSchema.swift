import Foundation
import GRDB

/// The parts of a Core Data store's SQLite schema the reader needs, read once: the entities
/// of `Z_PRIMARYKEY` and every table's actual columns (Apple's column numbering drifts, so
/// columns are always matched by name against what is really there).
struct CoreDataStoreSchema: Sendable {
    /// One row of `Z_PRIMARYKEY`: Core Data's entity number, name and parent's number (0: none).
    struct Entity: Sendable, Hashable {
        var number: Int
        var name: String
        var superNumber: Int
    }

    /// One column as `PRAGMA table_info` gives it.
    struct Column: Sendable, Hashable {
        var name: String
        /// The declared type, uppercased (`INTEGER`, `VARCHAR`, `TIMESTAMP`…).
        var type: String
    }

    /// Core Data numbers its own bookkeeping entities (persistent history's `TRANSACTION`,
    /// `CHANGE`, `TRANSACTIONSTRING`) from 16000 up; they are never the app's.
    static let firstInternalEntityNumber = 16000

    /// The app's entities, by number.
    var entities: [Entity]
    /// Every table's columns, keyed by the table's name uppercased.
    var tables: [String: [Column]]
    /// Every table's name as the file spells it, keyed by the name uppercased.
    var tableNames: [String: String]

    /// Reads `Z_PRIMARYKEY` and the tables. A damaged `Z_PRIMARYKEY` row (no name, a
    /// non-integer number) is skipped with a warning.
    static func read(_ db: Database, warnings: inout [String]) throws -> CoreDataStoreSchema {
        var tables: [String: [Column]] = [:]
        var names: [String: String] = [:]
        let tableList = try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'table'")
        for table in tableList {
            let columns = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?, 'main')", arguments: [table])
            tables[table.uppercased()] = columns.map { Column(name: $0["name"] ?? "", type: (($0["type"] as String?) ?? "").uppercased()) }
            names[table.uppercased()] = table
        }
        var entities: [Entity] = []
        if let table = names["Z_PRIMARYKEY"] {
            do {
                // Values are decoded leniently (`fromDatabaseValue`): a damaged row is skipped,
                // never converted by force.
                for row in try Row.fetchAll(db, sql: "SELECT * FROM main.\(sqlIdentifier(table)) ORDER BY Z_ENT") {
                    let number = Int.fromDatabaseValue(row["Z_ENT"] as DatabaseValue)
                    let name = String.fromDatabaseValue(row["Z_NAME"] as DatabaseValue)
                    guard let number, let name, !name.isEmpty else {
                        warnings.append("Z_PRIMARYKEY: a row without an entity number or name was skipped")
                        continue
                    }
                    guard number < firstInternalEntityNumber else { continue }
                    guard !entities.contains(where: { $0.name == name || $0.number == number }) else {
                        warnings.append("Z_PRIMARYKEY: a second row for entity \(name) (number \(number)) was skipped")
                        continue
                    }
                    entities.append(Entity(number: number, name: name, superNumber: Int.fromDatabaseValue(row["Z_SUPER"] as DatabaseValue) ?? 0))
                }
            } catch {
                warnings.append("Z_PRIMARYKEY: could not be read (\(error)); no entity numbers are known")
                entities = []
            }
        }
        return CoreDataStoreSchema(entities: entities, tables: tables, tableNames: names)
    }

    /// The columns of `table` (any case), or `nil` when the file has no such table.
    func columns(of table: String) -> [Column]? { tables[table.uppercased()] }

    /// The file's spelling of `table`, or `nil`.
    func tableName(_ table: String) -> String? { tableNames[table.uppercased()] }

    /// The entity named `name`.
    func entity(named name: String) -> Entity? { entities.first { $0.name == name } }

    /// The name of the table Core Data keeps an inheritance tree rooted at `root` in.
    static func tableName(ofRoot root: String) -> String { "Z" + root.uppercased() }
}
