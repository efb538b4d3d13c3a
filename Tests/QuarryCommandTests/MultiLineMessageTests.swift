import Foundation
import GRDB
import Quarry
import QuarryTestSupport
import Testing

/// Multi-line text (migration plans, lists of bad rows, a refused save's validation failures)
/// is printed line by line: each line escaped, the line breaks kept, never a literal `^J`.
@Suite("Messages of several lines keep their line breaks")
struct MultiLineMessageTests {
    let directory = TemporaryDirectory()

    /// A store made with ``MigrateCommandTests/v1`` holding one item, and the v2 model file (a
    /// plan of three changes: a rename, an optional attribute made required, an added one).
    private func storeAndNewerModel() throws -> (store: URL, model: URL) {
        let store = directory.file("items.sqlite")
        let v1 = try QuarryExecutable.write(MigrateCommandTests.v1, to: directory.file("v1.json"))
        #expect(try QuarryExecutable.run(["create", store.path, "--model", v1.path]).status == 0)
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: "INSERT INTO Item (Z_PK, Z_ENT, Z_OPT, name, count) VALUES (1, 0, 1, 'a', 3)")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 1")
        }
        return (store, try QuarryExecutable.write(MigrateCommandTests.v2, to: directory.file("v2.json")))
    }

    /// The lines of `text` (no empty last line).
    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    @Test("migrate --dry-run prints a plan of three changes on more than three lines")
    func migrationPlanKeepsItsLines() throws {
        let (store, model) = try storeAndNewerModel()
        let result = try QuarryExecutable.run(["migrate", store.path, "--model", model.path, "--dry-run"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.contains("^J"), "\(result.standardOutput)")
        let printed = lines(result.standardOutput)
        #expect(printed.count > 3, "\(printed)")
        #expect(printed.contains { $0.trimmingCharacters(in: .whitespaces) == "title: renamed from name" }, "\(printed)")
        #expect(printed.contains { $0.trimmingCharacters(in: .whitespaces) == "+ note: String, optional" }, "\(printed)")
    }

    @Test("browse --model NEWER asks with the plan on separate lines")
    func browseQuestionKeepsThePlansLines() throws {
        let (store, model) = try storeAndNewerModel()
        let result = try QuarryExecutable.run(["browse", store.path, "--model", model.path], input: "\n")
        #expect(result.status == 1)
        #expect(!result.standardError.contains("^J"), "\(result.standardError)")
        let printed = lines(result.standardError)
        #expect(printed.contains { $0.trimmingCharacters(in: .whitespaces) == "Item: in place, 1 row affected" }, "\(printed)")
        #expect(printed.contains { $0.trimmingCharacters(in: .whitespaces) == "title: renamed from name" }, "\(printed)")
    }

    @Test("browse --read-only refuses a migration with the plan on separate lines")
    func readOnlyRefusalKeepsThePlansLines() throws {
        let (store, model) = try storeAndNewerModel()
        let result = try QuarryExecutable.run(["browse", store.path, "--model", model.path, "--read-only"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("needs a migration but was opened read-only"))
        #expect(!result.standardError.contains("^J"), "\(result.standardError)")
        #expect(lines(result.standardError).contains { $0.trimmingCharacters(in: .whitespaces) == "title: renamed from name" },
                "\(result.standardError)")
    }

    @Test("import's bad rows are one FILE:LINE:COLUMN: line each")
    func badRowsAreOneLineEach() throws {
        let model = try QuarryExecutable.write(MigrateCommandTests.v1, to: directory.file("v1.json"))
        let csv = try QuarryExecutable.write("name,count\na,one\nb,2\nc,three\n", to: directory.file("items.csv"))
        let result = try QuarryExecutable.run(["import", directory.file("new.sqlite").path, csv.path, "--entity", "Item", "--model", model.path])
        #expect(result.status == 1)
        #expect(!result.standardError.contains("^J"), "\(result.standardError)")
        let located = lines(result.standardError).filter { $0.hasPrefix(csv.path + ":") }
        #expect(located.map { String($0.dropFirst(csv.path.count)) } == [
            ":2:3: 'count': 'one' is not an integer",
            ":4:3: 'count': 'three' is not an integer",
        ], "\(result.standardError)")
    }

    @Test("a bad field holding a line break is shown with \\n, its report still one line")
    func aFieldsLineBreakStaysInItsLine() throws {
        let model = try QuarryExecutable.write(MigrateCommandTests.v1, to: directory.file("v1.json"))
        let csv = try QuarryExecutable.write("name,count\na,\"4\n2\"\n", to: directory.file("split.csv"))
        let result = try QuarryExecutable.run(["import", directory.file("split.sqlite").path, csv.path, "--entity", "Item", "--model", model.path])
        #expect(result.status == 1)
        #expect(!result.standardError.contains("^J"), "\(result.standardError)")
        #expect(lines(result.standardError).contains("\(csv.path):2:3: 'count': '4\\n2' is not an integer"), "\(result.standardError)")
    }

    @Test("a save refused by validation lists each failure on a line of its own")
    func validationFailuresKeepTheirLines() throws {
        // The rows pass the import's checks, but the save finds what only it checks: a to-many
        // relationship's minimum count.
        let model = try QuarryExecutable.write("""
            {"entities": [{"name": "Basket", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "fruits", "destination": "Fruit", "inverse": "basket", "toMany": true, "minCount": 1}]},
                          {"name": "Fruit", "attributes": [{"name": "name", "type": "String"}],
                           "relationships": [{"name": "basket", "destination": "Basket", "inverse": "fruits"}]}]}
            """, to: directory.file("baskets.json"))
        let csv = try QuarryExecutable.write("name\nwicker\nsteel\n", to: directory.file("baskets.csv"))
        let result = try QuarryExecutable.run(["import", directory.file("baskets.sqlite").path, csv.path, "--entity", "Basket", "--model", model.path])
        #expect(result.status == 1)
        #expect(!result.standardError.contains("^J"), "\(result.standardError)")
        let failures = lines(result.standardError).filter { $0.hasPrefix("  - Basket ") }
        #expect(failures.count == 2, "\(result.standardError)")
    }
}
