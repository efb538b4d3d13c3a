import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Import: CSV reading")
struct ImportCSVTests {
    @Test("a header names the columns and each row becomes an object")
    func headerAndRows() throws {
        let f = try ImportFixture()
        let result = f.importText("name,employees,price\nAcme,12,1.5\nBeta,7,2\n")
        #expect(result.summary?.rowsImported == 2)
        let rows = try f.rows()
        #expect(rows.map { $0["name"] } == [.string("Acme"), .string("Beta")])
        #expect(rows.map { $0["employees"] } == [.integer(12), .integer(7)])
        #expect(rows.map { $0["price"] } == [.double(1.5), .double(2)])
    }

    @Test("quoted fields keep commas, doubled quotes and line breaks")
    func quoting() throws {
        let f = try ImportFixture()
        let text = "name,code\n\"Acme, Inc.\",ABC\n\"Say \"\"hi\"\"\",DEF\n\"two\nlines\",GHI\n"
        #expect(f.importText(text).summary?.rowsImported == 3)
        let names = try f.rows().compactMap { if case .string(let s)? = $0["name"] { s } else { nil } }
        #expect(Set(names) == ["Acme, Inc.", "Say \"hi\"", "two\nlines"])
    }

    @Test("CRLF line ends, a byte-order mark and a missing final newline are read")
    func crlfBomAndNoFinalNewline() throws {
        let f = try ImportFixture()
        #expect(f.importText("\u{FEFF}name,employees\r\nAcme,1\r\nBeta,2").summary?.rowsImported == 2)
        #expect(try f.rows().map { $0["employees"] } == [.integer(1), .integer(2)])
        #expect(try f.rows().map { $0["name"] } == [.string("Acme"), .string("Beta")])
    }

    @Test("an empty field is nil; a quoted empty field is the empty string for a string attribute")
    func emptyFields() throws {
        let f = try ImportFixture()
        #expect(f.importText("name,region\nA,\nB,\"\"\n", entity: "Sector").summary?.rowsImported == 2)
        #expect(try f.rows("Sector").map { $0["region"] } == [.null, .string("")])
        #expect(f.importText("name,employees\nAcme,\"\"\n").summary?.rowsImported == 1)
        #expect(try f.rows().map { $0["employees"] } == [.null], "a quoted empty field is nil for a number")
    }

    @Test("an unterminated quote is named at the field that opens it")
    func unterminatedQuote() throws {
        let f = try ImportFixture()
        let result = f.importText("name,code\nAcme,ABC\nBeta,\"DEF\n")
        #expect(result.rowErrors.map(\.description) == ["\(f.directory.file("data.csv").path):3:6: quoted field is never closed"])
        #expect(try f.count() == 0)
    }

    @Test("a row with the wrong number of fields is an error naming its line")
    func fieldCount() throws {
        let f = try ImportFixture()
        let result = f.importText("name,code\nAcme,ABC\nBeta\n")
        #expect(result.rowErrors.map(\.line) == [3])
        #expect(result.rowErrors.first?.message == "row has 1 field(s), the header has 2")
    }

    @Test("text after a closing quote and a quote inside an unquoted field are errors")
    func strayQuotes() throws {
        let f = try ImportFixture()
        #expect(f.importText("name\n\"Acme\"x\n").rowErrors.map { "\($0.line):\($0.column)" } == ["2:7"])
        #expect(f.importText("name\nAc\"me\n").rowErrors.map { "\($0.line):\($0.column)" } == ["2:3"])
    }

    @Test("a blank line is skipped; an empty file or a repeated column name is refused")
    func blankLinesAndHeaders() throws {
        let f = try ImportFixture()
        #expect(f.importText("").rowErrors.first?.message.contains("empty") == true)
        #expect(f.importText("name,name\nA,B\n").rowErrors.first?.message == "column 'name' appears twice in the header")
        #expect(f.importText("name\nAcme\n\nBeta\n").summary?.rowsImported == 2)
    }
}
