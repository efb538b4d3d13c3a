import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Import: JSON Lines and JSON arrays")
struct ImportJSONTests {
    @Test("JSON Lines: one object per line, typed values, absent members keep defaults")
    func jsonLines() throws {
        let f = try ImportFixture()
        let text = """
            {"name": "Acme", "employees": 12, "listed": true, "exact": "0.1", "extra": {"k": [1, 2]}}

            {"name": "Beta", "big": 9007199254740993, "founded": "2023-11-14T22:13:20Z", "price": null}
            """
        #expect(f.importText(text, name: "data.jsonl").summary?.rowsImported == 2)
        let rows = try f.rows()
        #expect(rows[0]["employees"] == .integer(12) && rows[0]["listed"] == .bool(true))
        #expect(rows[0]["exact"] == .decimal(Decimal(string: "0.1")!))
        #expect(rows[0]["extra"] == .json(.object(["k": .array([.number(1), .number(2)])])))
        #expect(rows[1]["big"] == .integer(9_007_199_254_740_993), "integers stay exact beyond 2^53")
        #expect(rows[1]["founded"] == .date(Date(timeIntervalSince1970: 1_700_000_000)))
        #expect(rows[1]["price"] == .null)
    }

    @Test("a JSON array of objects, pretty-printed")
    func jsonArray() throws {
        let f = try ImportFixture()
        let text = "[\n  {\"name\": \"Acme\", \"code\": \"ABC\"},\n  {\"name\": \"B\\u00e9ta \\ud83d\\ude00\"}\n]\n"
        #expect(f.importText(text, name: "data.json").summary?.rowsImported == 2)
        #expect(try f.rows().map { $0["name"] } == [.string("Acme"), .string("Béta 😀")])
    }

    @Test("a value of the wrong JSON type is named at its line and column")
    func wrongType() throws {
        let f = try ImportFixture()
        let text = "[\n  {\"name\": \"Acme\"},\n  {\"name\": \"Beta\",\n   \"employees\": \"12\"}\n]"
        let errors = f.importText(text, name: "data.json").rowErrors
        #expect(errors.map(\.description) == ["\(f.directory.file("data.json").path):4:17: 'employees': expected a number (Integer 16), got a string"])
        #expect(try f.count() == 0)
    }

    @Test("an unknown member and a missing required member are errors of their row")
    func unknownAndMissing() throws {
        let f = try ImportFixture()
        let text = "{\"name\": \"Acme\", \"colour\": \"red\"}\n{\"code\": \"ABC\"}\n"
        let errors = f.importText(text, name: "data.jsonl").rowErrors
        #expect(errors.map { "\($0.line):\($0.column)" } == ["1:28", "2:1"])
        #expect(errors.first?.message == "unknown column 'colour': entity 'Company' has no attribute 'colour'")
        #expect(errors.last?.message == "'name' is required")
    }

    @Test("JSON syntax errors stop the file with a position; two objects on one line are refused")
    func syntax() throws {
        let f = try ImportFixture()
        #expect(f.importText("[{\"name\": \"A\"} {\"name\": \"B\"}]", name: "data.json").rowErrors.map(\.column) == [16])
        #expect(f.importText("{\"name\": \"A\"} {\"name\": \"B\"}\n", name: "data.jsonl").rowErrors.first?.message == "expected one object per line")
        #expect(f.importText("{\"name\": tru}\n", name: "data.jsonl").rowErrors.first?.message == "expected a JSON value")
        let deep = "{\"name\": \"A\", \"extra\": " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}\n"
        #expect(f.importText(deep, name: "data.jsonl").rowErrors.first?.message.contains("nested deeper") == true)
        #expect(try f.count() == 0)
    }
}
