import Foundation
import GRDB
import Quarry
import QuarryTestSupport
import Testing

/// `quarry import`, `quarry export`, `quarry convert` and `quarry browse FOLDER`, end to end.
struct DataCommandTests {
    let directory = TemporaryDirectory()

    static let model = """
        {"entities": [{"name": "Company", "attributes": [{"name": "name", "type": "String", "optional": false},
                         {"name": "employees", "type": "Integer 32"}, {"name": "founded", "type": "Date"}],
                       "relationships": [{"name": "sector", "destination": "Sector", "inverse": "companies"}]},
                      {"name": "Sector", "attributes": [{"name": "name", "type": "String"}], "unique": [["name"]],
                       "relationships": [{"name": "companies", "destination": "Company", "inverse": "sector", "toMany": true}]}]}
        """
    static let csv = """
        name,employees,founded,Sector
        "Acme, Inc.",120,2001-05-01T00:00:00Z,Tech
        Bolt,8,1999-12-31,Energy
        "Cog ""&"" Co",45,,Tech

        """

    /// A store imported from `csv` (created by the import), and its path.
    private func importedStore() throws -> URL {
        let model = try QuarryExecutable.write(Self.model, to: directory.file("companies.json"))
        let csv = try QuarryExecutable.write(Self.csv, to: directory.file("companies.csv"))
        let store = directory.file("companies.sqlite")
        let result = try QuarryExecutable.run(["import", store.path, csv.path, "--entity", "Company", "--model", model.path,
                                               "--map", "Sector=sector.name", "--create-missing"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("imported 3 Company objects from \(csv.path) (2 related objects created)"))
        return store
    }

    private func export(_ store: URL, _ extra: [String] = []) throws -> String {
        let result = try QuarryExecutable.run(["export", store.path, "--entity", "Company", "--sort", "name",
                                               "--columns", "name,employees,founded,sector.name"] + extra)
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput
    }

    @Test func importThenExportGivesTheRowsBackAsCSV() throws {
        let store = try importedStore()
        #expect(try export(store) == """
            name,employees,founded,sector.name\r
            "Acme, Inc.",120,2001-05-01,Tech\r
            Bolt,8,1999-12-31,Energy\r
            "Cog ""&"" Co",45,,Tech\r

            """)
        #expect(try export(store, ["--where", "employees > 10", "--format", "jsonl"]).split(separator: "\n").count == 2)
    }

    @Test func exportToAFileWritesItWhole() throws {
        let store = try importedStore()
        let out = directory.file("out.json")
        let result = try QuarryExecutable.run(["export", store.path, "--entity", "Company", "-o", out.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("exported 3 Company objects to \(out.path)"))
        let parsed = try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [[String: Any]]
        #expect(parsed?.count == 3)
    }

    @Test func aBadRowWritesNothingAndIsNamedByFileLineAndColumn() throws {
        let model = try QuarryExecutable.write(Self.model, to: directory.file("companies.json"))
        let csv = try QuarryExecutable.write(Self.csv.replacingOccurrences(of: "Bolt,8,", with: "Bolt,eight,"), to: directory.file("bad.csv"))
        let store = directory.file("bad.sqlite")
        let result = try QuarryExecutable.run(["import", store.path, csv.path, "--entity", "Company", "--model", model.path,
                                               "--map", "Sector=sector.name", "--create-missing"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(csv.path):3:6:"), "\(result.standardError)")
        // The store the command would have created is not left behind either.
        #expect(!FileManager.default.fileExists(atPath: store.path))
        // Into an existing store: nothing is written.
        #expect(try QuarryExecutable.run(["create", store.path, "--model", model.path]).status == 0)
        let again = try QuarryExecutable.run(["import", store.path, csv.path, "--entity", "Company", "--map", "Sector=sector.name", "--create-missing"])
        #expect(again.status == 1)
        let count = try DatabaseQueue(path: store.path).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM Company") }
        #expect(count == 0)
    }

    @Test func convertToAJSONStoreAndBackKeepsEveryObject() throws {
        let store = try importedStore()
        let folder = directory.file("companies.jsonstore")
        let there = try QuarryExecutable.run(["convert", store.path, folder.path])
        #expect(there.status == 0, "\(there.standardError)")
        #expect(there.standardOutput.contains("JSON store folder): 5 objects"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("_Metadata.json").path))
        let back = directory.file("back.sqlite")
        let again = try QuarryExecutable.run(["convert", folder.path, back.path])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try export(back) == export(store))
        #expect(try export(folder) == export(store))
        // A destination that exists is refused.
        #expect(try QuarryExecutable.run(["convert", store.path, back.path]).status != 0)
    }

    @Test(.enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
    func browseOpensAJSONStoreFolderAndXExportsTheView() async throws {
        let store = try importedStore()
        let folder = directory.file("companies.jsonstore")
        #expect(try QuarryExecutable.run(["convert", store.path, folder.path]).status == 0)
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"))
        let tmux = TmuxHarness(width: 100, height: 20)
        defer { tmux.shutDown() }
        try tmux.start("\(executable.path) browse \(folder.path) --entity Company --sort name")
        let row = try await tmux.waitForRow { $0.contains("Acme, Inc.") }
        #expect(row != nil, "\((try? tmux.screen()) ?? [])")
        let out = directory.file("view.csv")
        try tmux.send("x")
        #expect(try await tmux.waitForRow { $0.contains("export to: Company.csv") } != nil)
        try tmux.send("C-u")
        try tmux.send("-l", out.path)
        try tmux.send("Enter")
        let done = try await tmux.waitForRow { $0.contains("exported 3 rows to") }
        #expect(done != nil, "\((try? tmux.screen()) ?? [])")
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
        #expect(try String(contentsOf: out, encoding: .utf8).contains("\"Acme, Inc.\""))
    }
}
