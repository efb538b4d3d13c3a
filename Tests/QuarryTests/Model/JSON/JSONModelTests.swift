import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite struct JSONModelTests {
    /// A definition with every attribute type and a default for each, plus every relationship option.
    static func everyFeature() -> ModelDefinition {
        var b = ModelBuilder()
        b.entity("Base", abstract: true, className: "BaseObject") { e in
            e.attribute("i16", .integer16, default: .integer(-7), min: -10, max: 10)
            e.attribute("i32", .integer32, default: .integer(70000))
            e.attribute("i64", .integer64, optional: false, default: .integer(Int64.max), indexed: true)
            e.attribute("dec", .decimal, default: .decimal(Decimal(string: "12.345")!))
            e.attribute("dbl", .double, default: .double(0.1))
            e.attribute("flt", .float, default: .double(2.5), min: 0.5)
            e.attribute("str", .string, default: .string("a \"quoted\"\nline\u{1}é"), regex: "[a-z]+")
            e.attribute("flag", .boolean, default: .bool(false))
            e.attribute("when", .date, default: .date(Date(timeIntervalSinceReferenceDate: 86400)))
            e.attribute("whenFraction", .date, default: .date(Date(timeIntervalSinceReferenceDate: 1.000123)))
            e.attribute("bytes", .binary, default: .data(Data([0, 1, 255])))
            e.attribute("uid", .uuid, default: .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!))
            e.attribute("link", .uri, default: .uri(URL(string: "https://example.com/a?b=c")!))
            e.attribute("blob", .transformable, default: .json(.object(["k": .array([.number(1), .bool(true), .null])])))
            e.attribute("scratch", .string, transient: true)
            e.attribute("nothing", .string, default: .null)
            e.index("byPair", "i16", "i32")
            e.unique("i64")
            e.unique("str", "flag")
        }
        b.entity("Leaf", parent: "Base") { e in
            e.toOne("owner", destination: "Owner", inverse: "leaves", optional: false, deleteRule: .noAction)
        }
        b.entity("Owner") { e in
            e.toMany("leaves", destination: "Leaf", inverse: "owner", ordered: true, deleteRule: .deny, minCount: 1, maxCount: 5)
        }
        return b.definition
    }

    @Test func encodingRoundTripsExactly() throws {
        for definition in [Self.everyFeature(), TestModels.tickerDefinition(), ModelDefinition(entities: [])] {
            let text = definition.jsonText()
            let decoded = try ModelDefinition(jsonText: text, path: "m.json")
            #expect(decoded == definition.canonical)
            #expect(decoded.jsonText() == text)
        }
    }

    @Test func encodingIsCanonical() {
        var reversed = Self.everyFeature()
        reversed.entities.reverse()
        for i in reversed.entities.indices { reversed.entities[i].attributes.reverse() }
        #expect(reversed.jsonText() == Self.everyFeature().jsonText())
    }

    @Test func fixtureLoadsAsTheTickerModel() throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/json/Tickers", withExtension: "json"))
        let model = try ManagedObjectModel.load(jsonAt: url)
        #expect(model == TestModels.tickers())
        #expect(model.versionHash == TestModels.tickers().versionHash)
    }

    @Test func syntaxErrorReportsLineAndColumn() {
        let text = "{\n  \"entities\": [\n    {\"name\": \"A\",, }\n  ]\n}"
        #expect(throws: ModelError.malformedFile(path: "bad.json", line: 3, column: 18, reason: "expected a quoted key")) {
            try ModelDefinition(jsonText: text, path: "bad.json")
        }
        #expect(throws: ModelError.malformedFile(path: "cut.json", line: 2, column: 14, reason: "unexpected end of file, expected a value")) {
            try ModelDefinition(jsonText: "{\n\"entities\": [", path: "cut.json")
        }
    }

    @Test func unknownKeyNamesEntityAndKey() throws {
        let text = "{\"entities\": [{\"name\": \"Quote\",\n \"attributes\": [{\"name\": \"price\", \"type\": \"Double\", \"colour\": 1}]}]}"
        let error = try #require(throws: ModelError.self) { try ModelDefinition(jsonText: text, path: "m.json") }
        guard case .malformedFile(let path, let line, let column, let reason) = error else { Issue.record("\(error)"); return }
        #expect(path == "m.json" && line == 2 && column == 53)
        #expect(reason.contains("entity 'Quote'") && reason.contains("attribute 'price'") && reason.contains("'colour'"))
    }

    @Test(arguments: [
        ("{\"entities\": [{\"name\": \"A\", \"attributes\": [{\"name\": \"x\", \"type\": \"Int\"}]}]}", ["'A'", "'type'", "'Int'"]),
        ("{\"entities\": [{\"name\": \"A\", \"relationships\": [{\"name\": \"r\", \"destination\": \"A\", \"deleteRule\": \"Erase\"}]}]}", ["'A'", "'deleteRule'", "'Erase'"]),
        ("{\"entities\": [{\"name\": \"A\", \"abstract\": \"yes\"}]}", ["'A'", "'abstract'", "true or false"]),
        ("{\"entities\": [{\"name\": \"A\", \"attributes\": [{\"type\": \"String\"}]}]}", ["'A'", "missing key 'name'"]),
        ("{\"entities\": [{\"name\": \"A\", \"attributes\": [{\"name\": \"d\", \"type\": \"Date\", \"default\": \"soon\"}]}]}", ["'A'", "'default'", "'soon'"]),
        ("{\"models\": []}", ["unknown key 'models'"]),
    ])
    func badValuesNameEntityAndKey(text: String, fragments: [String]) throws {
        let error = try #require(throws: ModelError.self) { try ModelDefinition(jsonText: text, path: "m.json") }
        guard case .malformedFile(let path, let line, let column, let reason) = error else { Issue.record("\(error)"); return }
        #expect(path == "m.json" && line == 1 && column > 1)
        for f in fragments { #expect(reason.contains(f), "\(reason) lacks \(f)") }
    }

    @Test func relationshipWithoutDestinationIsReportedByTheResolverNamingTheFile() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("m.json")
        try "{\"entities\": [{\"name\": \"A\", \"relationships\": [{\"name\": \"r\"}]}]}".write(to: url, atomically: true, encoding: .utf8)
        let reason = ModelError.missingDestination(entity: "A", relationship: "r").description
        #expect(throws: ModelError.malformedFile(path: url.path, line: 1, column: 56, reason: reason)) {
            try ManagedObjectModel.load(jsonAt: url)
        }
        #expect(throws: ModelError.fileNotFound(path: dir.file("none.json").path)) {
            try ManagedObjectModel.load(jsonAt: dir.file("none.json"))
        }
    }
}
