import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Import: to-one relationships by key path")
struct ImportRelationshipTests {
    @Test("a key path column finds the existing destination")
    func found() throws {
        let f = try ImportFixture()
        try f.addSectors(["Tech", "Food"])
        let result = f.importText("name,sector.name\nAcme,Tech\nBeta,Food\nGamma,\n")
        #expect(result.summary?.rowsImported == 3)
        #expect(try f.sectorNames() == ["Acme": "Tech", "Beta": "Food"])
        #expect(try f.count("Sector") == 2)
    }

    @Test("a renamed column can name a key path")
    func mappedKeyPath() throws {
        let f = try ImportFixture()
        try f.addSectors(["Tech"])
        let result = f.importText("name,Sector\nAcme,Tech\n", options: .init(columnMapping: ["Sector": "sector.name"]))
        #expect(result.summary?.rowsImported == 1)
        #expect(try f.sectorNames() == ["Acme": "Tech"])
    }

    @Test("a missing destination is a bad row unless creating is allowed; then it is created once")
    func missingAndCreated() throws {
        let f = try ImportFixture()
        try f.addSectors(["Tech"])
        let text = "name,sector.name\nAcme,Tech\nBeta,Food\nGamma,Food\n"
        let refused = f.importText(text)
        #expect(refused.rowErrors.map { "\($0.line):\($0.column): \($0.message)" } == [
            "3:6: row 2: no Sector with name = 'Food' (allow creating missing destinations to add it)",
            "4:7: row 3: no Sector with name = 'Food' (allow creating missing destinations to add it)",
        ])
        #expect(try f.count() == 0)
        let created = f.importText(text, options: .init(createsMissingDestinations: true, chunkSize: 2))
        #expect(created.summary?.destinationsCreated == 1)
        #expect(try f.count("Sector") == 2)
        #expect(try f.sectorNames() == ["Acme": "Tech", "Beta": "Food", "Gamma": "Food"])
    }

    @Test("a key path that finds two destinations is an error naming the row")
    func ambiguous() throws {
        let f = try ImportFixture()
        try f.addSectors(["Tech", "Tech", "Food"])
        let result = f.importText("name,sector.name\nAcme,Food\nBeta,Tech\n")
        #expect(result.rowErrors.map(\.description) == [
            "\(f.directory.file("data.csv").path):3:6: row 2: 'sector.name' = 'Tech' matches 2 Sector objects; the key must identify one",
        ])
        #expect(try f.count() == 0)
    }

    @Test("a key path through a to-many relationship or to an unknown attribute is refused on the header")
    func badKeyPaths() throws {
        let f = try ImportFixture()
        #expect(f.importText("name,companies.name\nTech,Acme\n", entity: "Sector").rowErrors.first?.message
                == "column 'companies.name': 'companies' is to-many; only to-one relationships can be imported")
        #expect(f.importText("name,sector.colour\nAcme,red\n").rowErrors.first?.message
                == "column 'sector.colour': entity 'Sector' has no stored attribute 'colour'")
        #expect(f.importText("name,sector\nAcme,Tech\n").rowErrors.first?.message
                == "column 'sector' names relationship 'sector': give a key path such as 'sector.name'")
    }
}
