import Foundation
import QuarryTestSupport
import Testing

/// What used to be accepted though wrong is refused, naming the file and line (a model) or the
/// column (a predicate): an invalid validation pattern, a minimum above its maximum, `ANY`/`ALL`
/// on a key path that leads to one value.
@Suite("Wrong models and predicates are refused with their position")
struct RefusedModelAndPredicateTests {
    let directory = TemporaryDirectory()

    private func model(_ attribute: String, name: String) throws -> URL {
        try QuarryExecutable.write("""
            {"entities": [{"name": "Item", "attributes": [
              \(attribute)]}]}
            """, to: directory.file(name))
    }

    @Test("a JSON model with an invalid regex is refused at the regex's line and column")
    func invalidRegexInAJSONModel() throws {
        let file = try model(#"{"name": "code", "type": "String", "regex": "[A-Z"}"#, name: "regex.json")
        let result = try QuarryExecutable.run(["model", file.path])
        #expect(result.status == 1, "\(result.standardOutput)")
        #expect(result.standardError.contains("\(file.path):2:47: entity 'Item': attribute 'code': key 'regex':"), "\(result.standardError)")
        #expect(result.standardError.contains("[A-Z"))
    }

    @Test("a JSON model whose minimum is above its maximum is refused at the maximum")
    func minimumAboveMaximumInAJSONModel() throws {
        let file = try model(#"{"name": "n", "type": "Integer 16", "min": 5, "max": 1}"#, name: "range.json")
        let result = try QuarryExecutable.run(["model", file.path])
        #expect(result.status == 1, "\(result.standardOutput)")
        #expect(result.standardError.contains("\(file.path):2:56: entity 'Item': attribute 'n': key 'max':"), "\(result.standardError)")
        #expect(result.standardError.contains("minimum 5"), "\(result.standardError)")
    }

    @Test("an Xcode model with an invalid regex or min > max is refused at the attribute's line")
    func wrongRulesInAnXcodeModel() throws {
        for (rules, expected) in [(#"regularExpressionString="(a"#, "regular expression"), (#"minValueString="9" maxValueString="2"#, "minimum 9")] {
            let folder = directory.file("Rules-\(expected.count).xcdatamodel")
            let contents = try QuarryExecutable.write("""
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name="Item" syncable="YES">
                        <attribute name="code" optional="YES" attributeType="String" \(rules)"/>
                    </entity>
                </model>
                """, to: folder.appendingPathComponent("contents"))
            let result = try QuarryExecutable.run(["model", folder.path])
            #expect(result.status == 1, "\(result.standardOutput)")
            #expect(result.standardError.contains("\(contents.path):4: "), "\(result.standardError)")
            #expect(result.standardError.contains(expected), "\(result.standardError)")
        }
    }

    @Test(arguments: [
        ("ANY price > 1", "'price'"),
        ("ALL sector.name == 'x'", "'sector.name'"),
        ("price > 1 AND NONE name == 'x'", "at column 15"),
    ])
    func aQuantifierOnAKeyPathToOneValueIsRefusedWithItsColumn(filter: String, expected: String) throws {
        let store = directory.file("where.sqlite").path
        #expect(try QuarryExecutable.run(["demo", "--seed-only", "--rows", "5", "--store", store]).status == 0)
        let result = try QuarryExecutable.run(["export", store, "--entity", "Ticker", "--where", filter])
        #expect(result.status == 64, "\(result.standardOutput)")
        #expect(result.standardError.contains("--where: "), "\(result.standardError)")
        #expect(result.standardError.contains("at column"), "\(result.standardError)")
        #expect(result.standardError.contains(expected), "\(result.standardError)")
        // A to-many key path takes them as before.
        let fine = try QuarryExecutable.run(["export", store, "--entity", "Sector", "--where", "ANY tickers.price > 1"])
        #expect(fine.status == 0, "\(fine.standardError)")
    }
}
