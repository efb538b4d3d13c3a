import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// ``BrowserConfiguration/cellFormats``: table cells of a column shown with a number, date,
/// mapping or custom format; other columns, the detail page and the edit form unchanged.
@MainActor
@Suite struct CellFormatScreenTests {
    /// An unsectioned fixture with `formats` on Ticker's columns.
    private func fixture(_ formats: [String: CellFormat]) throws -> BrowserFixture {
        try BrowserFixture(sectioned: false, configure: { configuration in
            for (column, format) in formats { configuration.cellFormats[CellFormatKey(entity: "Ticker", column: column)] = format }
        })
    }

    /// The table line of the ticker `symbol`.
    private func row(_ symbol: String, in f: BrowserFixture) throws -> String {
        try #require(f.screen().first { $0.hasPrefix(symbol + " ") })
    }

    @Test func aNumberFormatShowsFixedDecimalsAndLeavesOtherColumnsAlone() throws {
        let plain = try BrowserFixture(sectioned: false)
        let f = try fixture(["price": .number(decimals: 3)])
        let t01 = try row("T01", in: f)
        #expect(t01.contains("10.000"))
        #expect(try row("T02", in: f).contains("20.000"))
        // Every other cell is as without formats: only the price's text differs.
        let unformatted = try row("T01", in: plain)
        #expect(unformatted.contains("10.00 ") && !unformatted.contains("10.000"))
        #expect(t01.split(separator: " ").filter { $0 != "10.000" } == unformatted.split(separator: " ").filter { $0 != "10.00" })
    }

    @Test func aDateFormatUsesItsPatternInLocalTimeAndKeepsADateOnlyValuesDay() async throws {
        let f = try fixture(["listed": .date("dd/MM/yyyy HH:mm")])
        let moment = try #require(ValueText.parseDate("2026-03-04 12:34"))
        let day = try #require(CalendarDate(year: 2026, month: 5, day: 6)).date
        try await f.importerSave { context in
            try BrowserFixture.ticker("T01", in: context).setValue(.date(moment), forKey: "listed")
            try BrowserFixture.ticker("T02", in: context).setValue(.date(day), forKey: "listed")
        }
        #expect(try row("T01", in: f).contains("04/03/2026 12:34"))
        #expect(try row("T02", in: f).contains("06/05/2026 00:00"))
        #expect(!f.screen().contains(text: "2026-03-04"))
    }

    @Test func aMappingOnAToOneColumnMapsTheRelatedObjectsText() throws {
        let f = try fixture(["sector": .mapping(["Energy": "⚡ Power", "Nobody": "x"])])
        #expect(try row("T00", in: f).contains("⚡ Power"))
        #expect(try row("T03", in: f).contains("⚡ Power"))
        #expect(try row("T01", in: f).contains("Health"), "unmapped text is unchanged")
        #expect(try !row("T01", in: f).contains("⚡"))
    }

    @Test func aCustomClosureIsGivenTheValueAndTheColumnWidensToItsText() throws {
        let f = try fixture(["name": .custom { value in
            guard case .string(let text) = value else { return "?" }
            return "<" + text.uppercased() + " of the long custom text>"
        }])
        #expect(try row("T01", in: f).contains("<COMPANY 1 of the long custom text>"), "whole: the column fits the formatted text")
        #expect(try row("T01", in: f).hasPrefix("T01 "))
    }

    @Test func theDetailPageAndTheEditFormKeepRawValues() throws {
        let f = try fixture(["price": .number(decimals: 3), "name": .mapping(["Company 0": "Zero"])])
        #expect(try row("T00", in: f).contains("Zero"))
        f.press(.enter)
        guard case .detail(let pages) = f.browser.overlay, let page = pages.last else {
            Issue.record("Enter opens the detail page")
            return
        }
        #expect(page.entries.first { $0.label == "price" }?.value == "0.00")
        #expect(page.entries.first { $0.label == "name" }?.value == "Company 0")
        f.press(.escape)
        f.type("e")
        guard case .form(let session) = f.browser.overlay else {
            Issue.record("e opens the form")
            return
        }
        #expect(session.fields.first { $0.key == "price" }?.text == "0.00")
        #expect(session.fields.first { $0.key == "name" }?.text == "Company 0")
    }

    @Test func numbersOfEveryKindAndOtherValues() throws {
        let number = CellFormat.number(decimals: 2)
        #expect(number.text(for: .integer(7), defaultText: "7") == "7.00")
        #expect(number.text(for: .double(-1.005), defaultText: "") == "-1.00")
        #expect(number.text(for: .decimal(ScaledDecimal(string: "12.345")!), defaultText: "") == "12.35")
        #expect(number.text(for: .string("abc"), defaultText: "abc") == "abc")
        #expect(number.text(for: .null, defaultText: "") == "")
        #expect(CellFormat.number(decimals: 40).text(for: .double(1), defaultText: "") == "1.000000000", "clamped to 9, no trap")
        #expect(CellFormat.date("yyyy").text(for: .string("x"), defaultText: "x") == "x")
    }
}
