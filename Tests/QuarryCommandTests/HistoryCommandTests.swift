import Foundation
import Quarry
import QuarryTestSupport
import Testing

/// `quarry history STORE [--since] [--limit] [--json]` and `--prune-before TOKEN|DATE`.
struct HistoryCommandTests {
    let directory = TemporaryDirectory()

    /// A store made by `quarry import` (one save of three companies), then one more import.
    func store() throws -> URL {
        let model = try QuarryExecutable.write(DataCommandTests.model, to: directory.file("companies.json"))
        let store = directory.file("companies.sqlite")
        for (n, csv) in ["name,employees\nAcme,120\nBolt,8\nCog,45\n", "name,employees\nDyno,3\n"].enumerated() {
            let file = try QuarryExecutable.write(csv, to: directory.file("companies\(n).csv"))
            let result = try QuarryExecutable.run(["import", store.path, file.path, "--entity", "Company", "--model", model.path])
            #expect(result.status == 0, "\(result.standardError)")
        }
        return store
    }

    @Test func listsOneLinePerSaveWithItsCounts() throws {
        let store = try store()
        let result = try QuarryExecutable.run(["history", store.path])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines[0].contains("+3 ~0 -0") && lines[0].contains("(Company 3)"))
        #expect(lines[1].contains("+1 ~0 -0"))
    }

    @Test func jsonListsEveryChangeAndSinceSkipsEarlierTransactions() throws {
        let store = try store()
        let result = try QuarryExecutable.run(["history", store.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let transactions = try #require(object["transactions"] as? [[String: Any]])
        #expect(transactions.count == 2)
        let changes = try #require(transactions[0]["changes"] as? [[String: Any]])
        #expect(changes.count == 3)
        #expect(changes.allSatisfy { $0["entity"] as? String == "Company" && $0["type"] as? String == "insert" })
        let first = try #require(transactions[0]["token"] as? Int)
        let since = try QuarryExecutable.run(["history", store.path, "--since", String(first), "--json"])
        let later = try #require(try JSONSerialization.jsonObject(with: Data(since.standardOutput.utf8)) as? [String: Any])
        #expect((later["transactions"] as? [[String: Any]])?.count == 1)
        let limited = try QuarryExecutable.run(["history", store.path, "--limit", "1"])
        #expect(limited.standardOutput.contains("more after \(first): use --since"))
    }

    @Test func pruneBeforeATokenDeletesTheOlderTransactions() throws {
        let store = try store()
        let json = try QuarryExecutable.run(["history", store.path, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let tokens = try #require(object["transactions"] as? [[String: Any]]).compactMap { $0["token"] as? Int }
        let pruned = try QuarryExecutable.run(["history", store.path, "--prune-before", String(tokens[1])])
        #expect(pruned.status == 0, "\(pruned.standardError)")
        #expect(pruned.standardOutput.contains("pruned 1 transaction before \(tokens[1])"))
        let after = try QuarryExecutable.run(["history", store.path])
        #expect(after.standardOutput.split(separator: "\n").filter { $0.contains("+1 ~0 -0") }.count == 1)
        #expect(!after.standardOutput.contains("+3 ~0 -0"))
        let everything = try QuarryExecutable.run(["history", store.path, "--prune-before", "2100-01-01"])
        #expect(everything.standardOutput.contains("pruned 1 transaction"))
    }

    @Test func badArgumentsAndDatabasesQuarryDidNotMakeAreRefusedByName() throws {
        let store = try store()
        let bad = try QuarryExecutable.run(["history", store.path, "--prune-before", "yesterday"])
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("--prune-before yesterday"))
        let plain = try PlainSQLiteFixture.write(to: directory.file("plain.sqlite"))
        let foreign = try QuarryExecutable.run(["history", plain.path])
        #expect(foreign.status != 0)
        #expect(foreign.standardError.contains("records no Quarry history"))
    }
}
