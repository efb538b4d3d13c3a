import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Import: every row is validated before anything is written")
struct ImportValidationTests {
    @Test("one bad row in the middle writes nothing and is named FILE:LINE:COLUMN")
    func badRowInTheMiddle() throws {
        let f = try ImportFixture()
        var text = "name,employees,code\n"
        for i in 0..<100 { text += "Company \(i),\(i == 50 ? "many" : String(i)),ABC\n" }
        let result = f.importText(text, options: .init(chunkSize: 10))
        let path = f.directory.file("data.csv").path
        #expect(result.rowErrors.map(\.description) == ["\(path):52:12: 'employees': 'many' is not an integer"])
        #expect(try f.count() == 0, "no chunk was saved")
    }

    @Test("a row starting inside a multi-line field's file is named by its physical line")
    func physicalLines() throws {
        let f = try ImportFixture()
        let result = f.importText("name,code\n\"multi\nline\",ABC\nBeta,abc\n")
        #expect(result.rowErrors.map { "\($0.line):\($0.column)" } == ["4:6"])
    }

    @Test("more than 100 bad rows: 100 are reported and the error says how many more")
    func manyBadRows() throws {
        let f = try ImportFixture()
        var text = "name,rating\n"
        for i in 0..<135 { text += "C\(i),\(i % 5 == 0 ? "3" : "9")\n" }
        let result = f.importText(text)
        guard case .failure(.invalidRows(_, let errors, let total)) = result else { Issue.record("expected invalid rows"); return }
        #expect(errors.count == ImportOperation.maximumReportedErrors)
        #expect(total == 108)
        #expect(errors.first?.line == 3)
        if case .failure(let error) = result { #expect(error.description.hasSuffix("… and 8 more")) }
    }

    @Test("a row with the wrong number of fields or a stray quote does not stop the check")
    func checkingGoesOnAfterAMalformedRow() throws {
        let f = try ImportFixture()
        let errors = f.importText("name,employees\nA,1,x\nB,\"2\"x\nC,many\nD,70000\n").rowErrors
        #expect(errors.map { "\($0.line):\($0.column)" } == ["2:1", "3:6", "4:3", "5:3"])
        #expect(try f.count() == 0)
    }

    @Test("unknown columns and uncovered required attributes are reported on the header")
    func headerProblems() throws {
        let f = try ImportFixture()
        let errors = f.importText("code,colour,scratch\nABC,red,x\n").rowErrors
        #expect(errors.map { "\($0.line):\($0.column): \($0.message)" } == [
            "1:6: unknown column 'colour': entity 'Company' has no attribute 'colour'",
            "1:13: column 'scratch': 'scratch' is transient and cannot be imported",
            "1:1: required attribute 'name' has no column",
        ])
    }

    @Test("a mapping renames columns to attributes")
    func renamedColumns() throws {
        let f = try ImportFixture()
        let result = f.importText("Company Name,Staff\nAcme,5\n", options: .init(columnMapping: ["Company Name": "name", "Staff": "employees"]))
        #expect(result.summary?.rowsImported == 1)
        #expect(try f.rows().first?["employees"] == .integer(5))
        let bad = f.importText("Staff\n5\n", options: .init(columnMapping: ["Staff": "staff"]))
        #expect(bad.rowErrors.first?.message == "unknown column 'Staff' (mapped to 'staff'): entity 'Company' has no attribute 'staff'")
    }

    @Test("a missing file and an unknown entity are reported, not crashed on")
    func unreadable() throws {
        let f = try ImportFixture()
        let op = ImportOperation(stack: f.stack, entityName: "Company", fileURL: f.directory.file("absent.csv"))
        #expect(throws: ImportError.self) { try op.run() }
        #expect(f.importText("name\nA\n", entity: "Nope") == .failure(.unknownEntity("Nope")))
    }
}
