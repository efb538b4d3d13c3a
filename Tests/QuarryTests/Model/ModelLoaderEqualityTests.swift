import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("The three model loaders")
struct ModelLoaderEqualityTests {
    @Test("builder, JSON file and Xcode model give equal models with equal hashes")
    func threeWays() throws {
        let built = TestModels.tickers()
        let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
        let json = try ManagedObjectModel.load(jsonAt: fixtures.appendingPathComponent("json/Tickers.json"))
        let xcode = try ManagedObjectModel.load(xcodeModelAt: fixtures.appendingPathComponent("xcode/Tickers.xcdatamodel"))
        #expect(built == json)
        #expect(built == xcode)
        #expect(json.definition == xcode.definition)
        #expect(Set([built.versionHash, json.versionHash, xcode.versionHash]).count == 1)
        #expect(built.entityVersionHashes == xcode.entityVersionHashes)
        // And the JSON form of any of them loads back equal.
        let again = try ManagedObjectModel(ModelDefinition(jsonText: xcode.definition.jsonText(), path: "round-trip"))
        #expect(again == built)
    }

    @Test("a store opens without its model file, with the model it was made with")
    func modelFromStore() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("s.sqlite")
        _ = try SQLiteStore(url: url, model: TestModels.tickers())
        let reopened = try SQLiteStore(url: url, model: nil)
        #expect(reopened.model == TestModels.tickers())
    }
}
