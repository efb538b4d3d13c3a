import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// What loading a bad JSON model file says: the file, and the line and column of the declaration
/// at fault, for the resolver's faults and for validation rules that cannot be right.
@Suite("JSON model files: every fault names the file, line and column")
struct JSONModelFileFaultTests {
    let directory = TemporaryDirectory()

    /// Loads `text` written to `name`, expecting it to be refused; returns the error.
    private func refusal(_ text: String, name: String) throws -> (error: ModelError?, path: String) {
        let url = directory.file(name)
        try Data(text.utf8).write(to: url)
        let error = #expect(throws: ModelError.self) { try ManagedObjectModel.load(jsonAt: url) }
        return (error, url.path)
    }

    @Test("an unknown destination is named at the relationship's name")
    func resolverFaultsAreLocated() throws {
        let (error, path) = try refusal("""
            {"entities": [{"name": "A", "attributes": [{"name": "x", "type": "String"}],
              "relationships": [{"name": "b", "destination": "C"}]}]}
            """, name: "dest.json")
        #expect(error == .malformedFile(path: path, line: 2, column: 30,
                                        reason: "relationship 'A.b' points to 'C', which is not in the model"))
    }

    @Test("a regex that does not compile is refused at its value")
    func invalidRegexIsRefused() throws {
        let (error, path) = try refusal("""
            {"entities": [{"name": "A", "attributes": [
              {"name": "code", "type": "String", "regex": "(ab"}]}]}
            """, name: "regex.json")
        #expect(error == .malformedFile(path: path, line: 2, column: 47,
                                        reason: "entity 'A': attribute 'code': key 'regex': '(ab' is not a valid regular expression"))
    }

    @Test("a minimum above the maximum is refused at the maximum")
    func minimumAboveMaximumIsRefused() throws {
        let (error, path) = try refusal("""
            {"entities": [{"name": "A", "attributes": [
              {"name": "n", "type": "Double", "min": 2.5, "max": -1}]}]}
            """, name: "range.json")
        #expect(error == .malformedFile(path: path, line: 2, column: 54,
                                        reason: "entity 'A': attribute 'n': key 'max': the minimum 2.5 is above the maximum -1"))
    }

    @Test("equal bounds and a valid pattern load")
    func soundRulesLoad() throws {
        let url = directory.file("fine.json")
        try Data(#"{"entities": [{"name": "A", "attributes": [{"name": "n", "type": "String", "min": 3, "max": 3, "regex": "[a-z]+"}]}]}"#.utf8).write(to: url)
        #expect(try ManagedObjectModel.load(jsonAt: url).entity(named: "A")?.attribute("n")?.regularExpression == "[a-z]+")
    }
}
