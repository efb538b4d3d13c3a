import Foundation
import Quarry
import QuarryTestSupport
import Testing

/// `quarry update` and `quarry delete`, end to end.
struct BatchCommandTests {
    let directory = TemporaryDirectory()

    /// Companies in two sectors (Cascade from a sector to its companies), one with a founder who
    /// holds it through a Deny rule.
    static let model = """
        {"entities": [{"name": "Company", "attributes": [{"name": "name", "type": "String", "optional": false},
                         {"name": "employees", "type": "Integer 32", "min": 0}],
                       "relationships": [{"name": "sector", "destination": "Sector", "inverse": "companies"},
                                         {"name": "founder", "destination": "Founder", "inverse": "companies"}]},
                      {"name": "Sector", "attributes": [{"name": "name", "type": "String"}],
                       "relationships": [{"name": "companies", "destination": "Company", "inverse": "sector", "toMany": true, "deleteRule": "Cascade"}]},
                      {"name": "Founder", "attributes": [{"name": "name", "type": "String"}],
                       "relationships": [{"name": "companies", "destination": "Company", "inverse": "founder", "toMany": true, "deleteRule": "Deny"}]}]}
        """
    static let csv = """
        name,employees,Sector,Founder
        Acme,120,Tech,Ada
        Bolt,8,Energy,
        Cog,45,Tech,

        """

    private func store() throws -> URL {
        let model = try QuarryExecutable.write(Self.model, to: directory.file("companies.json"))
        let csv = try QuarryExecutable.write(Self.csv, to: directory.file("companies.csv"))
        let store = directory.file("companies.sqlite")
        let result = try QuarryExecutable.run(["import", store.path, csv.path, "--entity", "Company", "--model", model.path,
                                               "--map", "Sector=sector.name", "--map", "Founder=founder.name", "--create-missing"])
        #expect(result.status == 0, "\(result.standardError)")
        return store
    }

    private func rows(_ store: URL) throws -> String {
        let result = try QuarryExecutable.run(["export", store.path, "--entity", "Company", "--sort", "name", "--columns", "name,employees,sector.name"])
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.replacingOccurrences(of: "\r", with: "")
    }

    @Test func updateCountsAsksAndSetsComputedValues() throws {
        let store = try store()
        let dry = try QuarryExecutable.run(["update", store.path, "--entity", "Company", "--where", "sector.name == 'Tech'", "--set", "employees = employees * 2", "--dry-run"])
        #expect(dry.status == 0 && dry.standardOutput == "would update 2 Company objects\n", "\(dry.standardError)")
        let declined = try QuarryExecutable.run(["update", store.path, "--entity", "Company", "--set", "employees = 0"], input: "n\n")
        #expect(declined.status != 0 && declined.standardError.contains("update 3 Company objects? [y/N]")
                && declined.standardError.contains("not confirmed: nothing was changed"), "\(declined.standardError)")
        let done = try QuarryExecutable.run(["update", store.path, "--entity", "Company", "--where", "sector.name == 'Tech'",
                                             "--set", "employees = employees * 2, name = uppercase(name)"], input: "y\n")
        #expect(done.status == 0 && done.standardOutput == "updated 2 Company objects\n", "\(done.standardError)")
        #expect(try rows(store) == "name,employees,sector.name\nACME,240,Tech\nBolt,8,Energy\nCOG,90,Tech\n")
        let history = try QuarryExecutable.run(["history", store.path])
        #expect(history.standardOutput.contains("quarry update  +0 ~2 -0  (Company 2)"), "\(history.standardOutput)")
    }

    @Test func updateRefusesBadInputNamingWhatIsWrong() throws {
        let store = try store()
        func refusal(_ arguments: [String]) throws -> String {
            let result = try QuarryExecutable.run(["update", store.path] + arguments + ["--yes"])
            #expect(result.status != 0)
            return result.standardError
        }
        #expect(try refusal(["--entity", "Nope", "--set", "a = 1"]).contains("--entity Nope: the model has no such entity"))
        #expect(try refusal(["--entity", "Company", "--where", "employees >", "--set", "name = 'x'"]).contains("--where: "))
        #expect(try refusal(["--entity", "Company", "--set", "employees = employees +"]).contains("--set: unexpected 'end' at column 24"))
        #expect(try refusal(["--entity", "Company", "--set", "employees = name"]).contains("cannot set 'Company.employees' to name: gives a string"))
        #expect(try refusal(["--entity", "Company", "--set", "employees = employees - 50"])
                    .contains("'Company.employees' value -42 is below the minimum 0"))
        #expect(try rows(store) == "name,employees,sector.name\nAcme,120,Tech\nBolt,8,Energy\nCog,45,Tech\n")
    }

    @Test func deleteCascadesAndDenyRefusesNamingTheRelationship() throws {
        let store = try store()
        let denied = try QuarryExecutable.run(["delete", store.path, "--entity", "Founder", "--yes"])
        #expect(denied.status != 0 && denied.standardError.contains("delete denied: relationship 'Founder.companies' (delete rule Deny) still holds objects, for 1 Founder object(s)"),
                "\(denied.standardError)")
        let dry = try QuarryExecutable.run(["delete", store.path, "--entity", "Sector", "--where", "name == 'Tech'", "--dry-run"])
        #expect(dry.standardOutput == "would delete 1 Sector object (and what their Cascade rules reach)\n")
        // The Deny rule guards deleting the founder; deleting her company (by cascade) nullifies her side.
        let throughCascade = try QuarryExecutable.run(["delete", store.path, "--entity", "Sector", "--where", "name == 'Tech'", "--yes"])
        #expect(throughCascade.status == 0, "a Deny rule guards the founder's delete, not the company's: \(throughCascade.standardError)")
        #expect(throughCascade.standardOutput == "deleted 1 Sector object and 2 related objects (Cascade)\n")
        #expect(try rows(store) == "name,employees,sector.name\nBolt,8,Energy\n")
        let founderNow = try QuarryExecutable.run(["delete", store.path, "--entity", "Founder", "--yes"])
        #expect(founderNow.status == 0 && founderNow.standardOutput == "deleted 1 Founder object\n", "\(founderNow.standardError)")
    }

    @Test func groupedExportEqualsSQLitesGroupBy() throws {
        let store = try store()
        let result = try QuarryExecutable.run(["export", store.path, "--entity", "Company", "--group-by", "sector.name",
                                               "--columns", "sector.name,count(),sum(employees)", "--format", "csv"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\r\n").map(String.init)
        #expect(lines.first == "sector.name,count(),sum(employees)")
        if SQLiteShell.isInstalled {
            let sqlite = try SQLiteShell.run(store, """
                SELECT s.name, count(*), sum(c.employees) FROM Company c LEFT JOIN Sector s ON s.Z_PK = c.sector GROUP BY s.name
                """)
            #expect(Array(lines.dropFirst()) == sqlite.split(separator: "\n").map { $0.replacingOccurrences(of: "|", with: ",") })
        }
        #expect(Array(lines.dropFirst()) == ["Energy,1,8", "Tech,2,165"])
        let json = try QuarryExecutable.run(["export", store.path, "--entity", "Company", "--group-by", "sector.name",
                                             "--columns", "sector.name, avg(employees), max(name)", "--where", "employees > 10", "--format", "jsonl"])
        #expect(json.standardOutput == "{\"sector.name\":\"Tech\",\"avg(employees)\":82.5,\"max(name)\":\"Cog\"}\n", "\(json.standardError)")
        let refused = try QuarryExecutable.run(["export", store.path, "--entity", "Company", "--group-by", "sector.name", "--columns", "name,count()"])
        #expect(refused.status != 0 && refused.standardError.contains("'name' is neither grouped"), "\(refused.standardError)")
        let sum = try QuarryExecutable.run(["export", store.path, "--entity", "Company", "--columns", "sum(name)"])
        #expect(sum.status != 0 && sum.standardError.contains("'sum(name)': name is String, which cannot be summed"), "\(sum.standardError)")
    }

    @Test func storesQuarryDidNotMakeAreRefused() throws {
        let url = directory.file("plain.sqlite")
        _ = try SQLiteShell.run(url, "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1);")
        let path = url.path
        for command in [["update", path, "--entity", "t", "--set", "a = 2", "--yes"], ["delete", path, "--entity", "t", "--yes"]] {
            let result = try QuarryExecutable.run(command)
            #expect(result.status != 0 && result.standardError.contains("not a Quarry store"), "\(result.standardError)")
        }
    }
}
