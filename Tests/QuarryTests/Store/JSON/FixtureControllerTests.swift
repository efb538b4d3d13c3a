import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Fixture controller")
struct FixtureControllerTests {
    /// `Fixtures/store/Tickers`: a hand-written folder (minimal metadata, relationships given
    /// from one side or the other, IDs with gaps, no Quote, Stock or Bond file).
    static var tickersFolder: URL { Bundle.module.url(forResource: "Fixtures/store/Tickers", withExtension: nil)! }

    static func tickerFixtures() throws -> FixtureController {
        let model = TestModels.tickers()
        model.registerTickerClasses()
        return try FixtureController(model: model, dataURL: tickersFolder)
    }

    @Test("loads a fixture folder and hands out objects by the IDs in its files")
    func objectsByID() throws {
        let fixtures = try Self.tickerFixtures()
        #expect(fixtures.store.identifier == UUID(uuidString: "5B0E2C1A-7D3F-4E8B-9A61-0C2D4F6E8A10"))
        let acme = try fixtures.object(withID: 1, inEntity: "Ticker", as: Ticker.self)
        let ada = try fixtures.object(withID: 7, inEntity: "Person")
        try fixtures.context.performAndWait {
            #expect(acme.symbol == "ACME" && acme.price == 12.5 && acme.volume == 1200 && acme.active)
            #expect(acme.listed == Date(timeIntervalSinceReferenceDate: 736_257_600))
            #expect(acme.sector?.name == "Tech")
            #expect(try ada.value(forKey: "name") == .string("Ada"))
            let bolt = try fixtures.object(withID: 2, inEntity: "Ticker", as: Ticker.self)
            #expect(bolt.listed == Date(timeIntervalSinceReferenceDate: 596_812_500.5), "08:15:00.5 -0500 is 13:15:00.5 UTC")
            #expect(try bolt.value(forKey: "active") == .null, "a left-out attribute is nil")
            #expect(Set(bolt.tags.map(\.label)) == ["fast", "cheap"])
        }
        #expect(throws: QuarryError.self) { try fixtures.object(withID: 4, inEntity: "Ticker") }
        #expect(throws: QuarryError.self) { try fixtures.object(withID: 1, inEntity: "Nothing") }
    }

    @Test("changes to fixture objects are saved in memory only: the folder is never written")
    func folderUntouched() throws {
        let before = JSONStoreTesting.fingerprint(Self.tickersFolder)
        let fixtures = try FixtureController(model: TestModels.tickers(), dataURL: Self.tickersFolder)
        try fixtures.context.performAndWait {
            let acme = try fixtures.object(withID: 1, inEntity: "Ticker", as: Ticker.self)
            acme.price = 99
            let new = try fixtures.context.insert(Ticker.self); new.symbol = "NEW"
            try fixtures.context.save()
            #expect(new.objectID.primaryKey == 4, "new objects continue after the largest ID in the files")
        }
        #expect(JSONStoreTesting.fingerprint(Self.tickersFolder) == before)
        let again = try FixtureController(model: TestModels.tickers(), dataURL: Self.tickersFolder)
        let acme = try again.object(withID: 1, inEntity: "Ticker", as: Ticker.self)
        again.context.performAndWait { #expect(acme.price == 12.5) }
    }

    @Test("a fixture folder with a mistake is named by file, line and column")
    func badFixture() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("bad")
        try FileManager.default.copyItem(at: Self.tickersFolder, to: url)
        try Data("{\n  \"1\": {\"label\": \"fast\", \"tickers\": [\"Ticker.9\"]}\n}\n".utf8).write(to: url.appendingPathComponent("Tag.json"))
        let error = #expect(throws: JSONStoreError.self) { try FixtureController(model: TestModels.tickers(), dataURL: url) }
        #expect(error?.description == "\(url.appendingPathComponent("Tag.json").path):2:38: Tag.tickers refers to Ticker.9, which does not exist")
    }
}
