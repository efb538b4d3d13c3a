import Foundation
import Testing
@testable import Quarry
import QuarryDemo
import QuarryTestSupport

@Suite("JSON store: the folder format")
struct JSONStoreFormatTests {
    func populatedStore(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("Tickers.jsonstore")
        let store = try JSONStore(url: url, model: TestModels.tickers())
        try JSONStoreTesting.populateTickers(ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store)))
        return url
    }

    @Test("a store is a folder of _Metadata.json and one <Entity>.json per concrete entity, nothing else")
    func layout() throws {
        let directory = TemporaryDirectory()
        let url = try populatedStore(directory)
        #expect(JSONStoreTesting.fileNames(url) == [
            "Bond.json", "Person.json", "Portfolio.json", "Quote.json", "Sector.json", "Stock.json", "Tag.json", "Ticker.json",
            "_Metadata.json",
        ])
        #expect(JSONStoreTesting.fileNames(directory.url) == ["Tickers.jsonstore"], "no staging folder is left beside it")
    }

    @Test("an entity file maps IDs to values in model order: to-one as \"Entity.id\", to-many as arrays, nil left out")
    func entityFiles() throws {
        let directory = TemporaryDirectory()
        let url = try populatedStore(directory)
        #expect(try JSONStoreTesting.text(url, "Ticker.json") == """
            {
              "1": {"active": true, "listed": "2024-05-01 12:00:00.25 +0000", "name": "Acme \\"Rockets\\"", "price": 12.5, "symbol": "ACME", "volume": 100, "quotes": ["Quote.1"], "sector": "Sector.1", "tags": ["Tag.1"]},
              "2": {"active": false, "price": 3, "symbol": "BOLT", "volume": 0, "sector": "Sector.1", "tags": ["Tag.1"]}
            }

            """)
        #expect(try JSONStoreTesting.text(url, "Sector.json") == "{\n  \"1\": {\"name\": \"Tech\", \"tickers\": [\"Ticker.1\", \"Ticker.2\"]}\n}\n")
        #expect(try JSONStoreTesting.text(url, "Portfolio.json")
            == "{\n  \"1\": {\"title\": \"Main\", \"holdings\": [\"Ticker.2\", \"Ticker.1\"], \"owner\": \"Person.1\"}\n}\n",
            "an ordered to-many keeps its order")
        #expect(try JSONStoreTesting.text(url, "Quote.json") == "{\n  \"1\": {\"price\": 12.75, \"time\": \"2001-01-01\", \"ticker\": \"Ticker.1\"}\n}\n")
        #expect(try JSONStoreTesting.text(url, "Stock.json")
            == "{\n  \"1\": {\"code\": \"ACM\", \"value\": \"1234.567890123456789\", \"exchange\": \"XNYS\"}\n}\n", "decimals exact, as strings")
        #expect(try JSONStoreTesting.text(url, "Bond.json") == "{}\n")
    }

    @Test("_Metadata.json names the store UUID, generation, model version hash, key counters and the model")
    func metadata() throws {
        let directory = TemporaryDirectory()
        let url = try populatedStore(directory)
        let store = try JSONStore(url: url, model: nil, readOnly: true)
        let text = try JSONStoreTesting.text(url, "_Metadata.json")
        let model = TestModels.tickers()
        #expect(text.hasPrefix("""
            {
              "format": "Quarry JSON store",
              "formatVersion": 1,
              "storeUUID": "\(store.identifier.uuidString)",
              "generation": 2,
              "modelVersionHash": "\(model.versionHash)",
              "keyCounters": {"Asset": 1, "Person": 1, "Portfolio": 1, "Quote": 1, "Sector": 1, "Tag": 1, "Ticker": 2},
              "model": {
            """))
        #expect(store.model.versionHash == model.versionHash, "the stored model is the model the store was made with")
    }

    @Test("dates are yyyy-mm-dd hh:mm:ss ±hhmm in UTC, with the shortest fraction that reads back exactly; date-only values yyyy-mm-dd")
    func dates() throws {
        let cases: [(Double, String)] = [
            (0, "2001-01-01"),
            (736_257_600.25, "2024-05-01 12:00:00.25 +0000"),
            (-978_307_200, "1970-01-01"),
            (-978_307_200.5, "1969-12-31 23:59:59.5 +0000"),
            (-978_307_199, "1970-01-01 00:00:01 +0000"),
            (951_782_400, "2031-03-01"),
            (-31_622_400, "2000-01-01"),
        ]
        for (seconds, text) in cases {
            #expect(JSONStoreDate.format(Date(timeIntervalSinceReferenceDate: seconds)) == text)
            #expect(JSONStoreDate.parse(text) == Date(timeIntervalSinceReferenceDate: seconds))
        }
        // A UTC midnight written with its time (M3CoreData's own form) is the same value.
        #expect(JSONStoreDate.parse("2001-01-01 00:00:00 +0000") == Date(timeIntervalSinceReferenceDate: 0))
        #expect(JSONStoreDate.parse("2024-05-01 14:30:00.25 +0230") == Date(timeIntervalSinceReferenceDate: 736_257_600.25))
        #expect(JSONStoreDate.parse("2024-05-01 09:00:00 -0300") == Date(timeIntervalSinceReferenceDate: 736_257_600))
        var generator = SplitMix64(seed: 17)
        for _ in 0..<2_000 {
            let seconds = Double(Int64.random(in: -4_000_000_000...4_000_000_000, using: &generator)) / 1_000 + Double.random(in: 0..<1, using: &generator)
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            #expect(JSONStoreDate.parse(JSONStoreDate.format(date)) == date, "\(seconds)")
        }
        #expect(JSONStoreValue.encode(.date(Date(timeIntervalSinceReferenceDate: -1e12 + 0.5))) == "-999999999999.5",
                "a year the form cannot hold is written as seconds since 2001")
        for bad in ["2024-5-01", "2023-02-29", "2024-13-01 00:00:00 +0000", "2023-02-29 00:00:00 +0000", "2024-05-01 12:00:00. +0000",
                    "2024-05-01T12:00:00 +0000", "2024-05-01 12:00:00 0000", "2024-05-01 12:00:00 +0000 "] {
            #expect(JSONStoreDate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("a bad entity file is named with its line, column, entity and key; nothing is loaded")
    func badFiles() throws {
        let directory = TemporaryDirectory()
        let url = try populatedStore(directory)
        let cases: [(String, Int, Int, String)] = [
            ("{\n  \"1\": {\"symbol\": \"A\",}\n}\n", 2, 23, "expected a quoted key"),
            ("{\n  \"1\": {\"symbol\": 5}\n}\n", 2, 19, "Ticker.symbol (String): expected a string for a String attribute, found a number"),
            ("{\n  \"1\": {\"colour\": \"red\"}\n}\n", 2, 9, "Ticker has no stored property 'colour'"),
            ("{\n  \"x\": {}\n}\n", 2, 3, "'x' is not an object ID (a positive integer)"),
            ("{\n  \"1\": {\"symbol\": \"A\", \"sector\": \"Sector.9\"}\n}\n", 2, 34, "Ticker.sector refers to Sector.9, which does not exist"),
            ("{\n  \"1\": {\"symbol\": \"A\", \"sector\": \"Tag.1\"}\n}\n", 2, 34, "Ticker.sector: 'Tag.1' is not a Sector"),
            ("{\n  \"1\": {\"listed\": \"May 1st\"}\n}\n", 2, 19, "Ticker.listed (Date): 'May 1st' is not a date of the form yyyy-mm-dd hh:mm:ss ±hhmm or yyyy-mm-dd"),
        ]
        for (text, line, column, reason) in cases {
            try Data(text.utf8).write(to: url.appendingPathComponent("Ticker.json"))
            let error = #expect(throws: JSONStoreError.self) { try JSONStore(url: url, model: TestModels.tickers()) }
            #expect(error == .malformedFile(path: url.appendingPathComponent("Ticker.json").path, line: line, column: column, reason: reason))
        }
    }
}
