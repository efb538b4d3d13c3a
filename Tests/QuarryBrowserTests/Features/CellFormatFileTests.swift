import Foundation
import Quarry
import QuarryTestSupport
import Testing
@_spi(Testing) import QuarryBrowser

/// ``CellFormatFile``: `--formats FILE` read against the model; every bad key named with its
/// file and line.
@Suite struct CellFormatFileTests {
    let model = TestModels.tickers()

    private func parse(_ text: String) throws(CellFormatFileError) -> [CellFormatKey: CellFormat] {
        try CellFormatFile.parse(text, file: "formats.toml", model: model)
    }

    /// The error `text` is refused with.
    private func error(_ text: String) -> CellFormatFileError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func aGoodFileGivesAFormatPerColumn() throws {
        let formats = try parse("""
            # comments are fine
            [Ticker.price]
            number = 2
            [Ticker.listed]
            date = "yyyy-MM-dd HH:mm"
            [Ticker.sector]
            map = { Energy = "⚡ Energy", Tech = "Technology" }
            """)
        #expect(formats.count == 3)
        guard case .number(2)? = formats[CellFormatKey(entity: "Ticker", column: "price")] else { Issue.record("price"); return }
        guard case .date("yyyy-MM-dd HH:mm")? = formats[CellFormatKey(entity: "Ticker", column: "listed")] else { Issue.record("listed"); return }
        guard case .mapping(let map)? = formats[CellFormatKey(entity: "Ticker", column: "sector")] else { Issue.record("sector"); return }
        #expect(map == ["Energy": "⚡ Energy", "Tech": "Technology"])
        #expect(try parse("").isEmpty)
    }

    @Test func malformedTOMLIsRefusedWithItsLine() {
        let failure = error("[Ticker.price]\nnumber = = 2\n")
        #expect(failure?.file == "formats.toml")
        #expect(failure?.line == 2)
        #expect(failure?.description.hasPrefix("formats.toml:2: ") == true)
    }

    @Test func textThatWouldAbortTheParserIsRefused() {
        #expect(error("[é]\n")?.line == 1)
    }

    @Test func anUnknownEntityIsNamed() {
        let failure = error("[Ticker.price]\nnumber = 2\n[Tickr.price]\nnumber = 1\n")
        #expect(failure?.key == "Tickr")
        #expect(failure?.line == 3)
        #expect(failure?.description.contains("formats.toml:3: key 'Tickr': no entity 'Tickr'") == true)
    }

    @Test func anUnknownColumnIsNamed() {
        let failure = error("[Ticker.prize]\nnumber = 2\n")
        #expect(failure?.key == "Ticker.prize")
        #expect(failure?.line == 1)
        #expect(failure?.message.contains("Ticker has no column 'prize'") == true)
        // A to-many relationship and a transient attribute are no columns.
        #expect(error("[Ticker.quotes]\nnumber = 2\n")?.key == "Ticker.quotes")
        #expect(error("[Ticker.note]\nnumber = 2\n")?.key == "Ticker.note")
    }

    @Test func anUnknownKeyIsNamed() {
        let failure = error("[Ticker.price]\ndigits = 2\n")
        #expect(failure?.key == "Ticker.price.digits")
        #expect(failure?.line == 2)
        #expect(failure?.message.contains("unknown key") == true)
    }

    @Test func badValuesAreNamed() {
        #expect(error("[Ticker.price]\nnumber = 12\n")?.key == "Ticker.price.number")
        #expect(error("[Ticker.price]\nnumber = \"2\"\n")?.key == "Ticker.price.number")
        #expect(error("[Ticker.listed]\ndate = 3\n")?.key == "Ticker.listed.date")
        #expect(error("[Ticker.sector]\nmap = \"x\"\n")?.key == "Ticker.sector.map")
        #expect(error("[Ticker.sector]\nmap = { Energy = 1 }\n")?.key == "Ticker.sector.map.Energy")
        #expect(error("[Ticker.price]\nnumber = 2\ndate = \"yyyy\"\n")?.key == "Ticker.price")
        #expect(error("[Ticker.price]\n")?.key == "Ticker.price")
        #expect(error("Ticker = 3\n")?.key == "Ticker")
        #expect(error("[Ticker]\nprice = 3\n")?.key == "Ticker.price")
    }

    @Test func anUnreadableFileIsNamed() {
        #expect(throws: CellFormatFileError.self) {
            try CellFormatFile.load(contentsOf: URL(fileURLWithPath: "/nonexistent/formats.toml"), model: model)
        }
        do {
            _ = try CellFormatFile.load(contentsOf: URL(fileURLWithPath: "/nonexistent/formats.toml"), model: model)
        } catch {
            #expect(error.file == "/nonexistent/formats.toml")
        }
    }
}
