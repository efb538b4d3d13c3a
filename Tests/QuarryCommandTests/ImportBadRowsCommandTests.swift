import Foundation
import QuarryTestSupport
import Testing

/// `quarry import` checks every row of a bad file and reports every bad row (up to a cap), with
/// the total: a row with the wrong number of fields or a JSON Lines syntax error does not stop
/// the check.
@Suite("Import: every bad row is reported")
struct ImportBadRowsCommandTests {
    let directory = TemporaryDirectory()

    static let model = #"{"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String", "optional": false}, {"name": "count", "type": "Integer 16"}]}]}"#

    /// Runs `quarry import` of `text` (written to `name`) into a new store.
    private func importing(_ text: String, name: String) throws -> (result: CommandRunner.Result, file: String) {
        let model = try QuarryExecutable.write(Self.model, to: directory.file("items.json"))
        let file = try QuarryExecutable.write(text, to: directory.file(name))
        let result = try QuarryExecutable.run(["import", directory.file("items-\(name).sqlite").path, file.path,
                                               "--entity", "Item", "--model", model.path])
        return (result, file.path)
    }

    /// The `FILE:LINE:COLUMN:` lines of `output` with the file's path left out.
    private func located(_ output: String, in file: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix(file + ":") }.map { String($0.dropFirst(file.count + 1)) }
    }

    @Test("eight bad rows, one with too many fields and an out-of-range integer after it: all eight are reported")
    func rowsAfterOneWithTooManyFieldsAreChecked() throws {
        let csv = """
            name,count
            a,x1
            b,1,extra
            c,x3
            d,x4
            e,x5
            f,x6
            g,x7
            h,99999

            """
        let (result, file) = try importing(csv, name: "items.csv")
        #expect(result.status == 1)
        #expect(result.standardError.contains("8 bad row(s), nothing imported"), "\(result.standardError)")
        let reported = located(result.standardError, in: file)
        #expect(reported.count == 8, "\(result.standardError)")
        #expect(reported.contains("3:1: row has 3 field(s), the header has 2"), "\(reported)")
        #expect(reported.contains("9:3: 'count': '99999' is out of range for Integer 16 (-32768…32767)"), "\(reported)")
    }

    @Test("more bad rows than the cap: the first 100 are reported, and the total")
    func reportsUpToTheCapAndTheTotal() throws {
        var csv = "name,count\n"
        for i in 0..<150 { csv += i % 2 == 0 ? "n\(i),x\n" : "n\(i),1,2\n" }
        let (result, file) = try importing(csv, name: "many.csv")
        #expect(result.status == 1)
        #expect(result.standardError.contains("150 bad row(s), nothing imported"), "\(result.standardError)")
        #expect(located(result.standardError, in: file).count == 100)
        #expect(result.standardError.contains("… and 50 more"))
    }

    @Test("a JSON Lines file's syntax errors are each reported with line and column")
    func everyJSONLinesSyntaxErrorIsReported() throws {
        let jsonl = """
            {"name": "a", "count": 1}
            {"name": "b", "count": }
            {"name": "c", "count": 3}
            {"name": "d" "count": 4}
            {"name": "e", "count": "five"}
            {"name": "f", "count": 6,}

            """
        let (result, file) = try importing(jsonl, name: "items.jsonl")
        #expect(result.status == 1)
        #expect(result.standardError.contains("4 bad row(s), nothing imported"), "\(result.standardError)")
        let reported = located(result.standardError, in: file)
        #expect(reported.map { $0.prefix { $0 != " " } } == ["2:24:", "4:14:", "5:24:", "6:26:"], "\(reported)")
    }
}
