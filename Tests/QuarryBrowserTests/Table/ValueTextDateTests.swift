import Foundation
import Quarry
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

@MainActor
@Suite("Typed dates: only dates that exist")
struct ValueTextDateTests {
    @Test("dates that do not exist are refused, not rolled over", arguments: [
        "2026-02-30 10:00:00", "2026-02-29", "2026-13-01", "2026-04-31 00:00", "2026-01-01 25:00", "2026-01-01 10:60",
        "2026-01-01 10:00:60", "2026-00-10",
    ])
    func nonexistentDatesAreRefused(_ text: String) {
        #expect(ValueText.parseDate(text) == nil)
        #expect(throws: ValueTextError.self) { try ValueText.parse(text, as: .date, optional: true) }
    }

    @Test("dates that exist round-trip", arguments: ["2024-02-29 23:59:59", "2026-11-22 14:30:00", "2026-12-31 00:00:00"])
    func existingDatesRoundTrip(_ text: String) throws {
        // A zone whose midnight is no UTC midnight: there, 00:00:00 is a time, not a date-only value.
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let date = try #require(ValueText.parseDate(text, in: newYork))
        #expect(ValueText.formatDate(date, in: newYork) == text)
    }

    @Test("local time is the C library's, which agrees with TimeZone.current (without loading ICU's zone data)")
    func localTimeAgreesWithFoundation() {
        // Around the year, both sides of common daylight-saving changes, and long ago.
        let instants: [time_t] = [0, 1_700_000_000, 1_711_846_800, 1_711_850_400, 1_729_990_800, 1_729_994_400, 1_751_328_000, -1_000_000_000]
        for instant in instants {
            #expect(ValueText.secondsFromGMT(at: instant, in: nil) == TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))), "\(instant)")
        }
        let utc = TimeZone(identifier: "UTC")!
        #expect(ValueText.formatDate(Date(timeIntervalSince1970: 1), in: utc) == "1970-01-01 00:00:01")
    }

    @Test("a nonexistent date typed into a form is refused under its field and nothing is saved")
    func formRefusesNonexistentDate() throws {
        let f = try BrowserFixture()
        let quote = try #require(try f.stack.mainContext.fetch(FetchRequest(entityName: "Quote")).first)
        let session = try EditSession(stack: f.stack, entityName: "Quote", id: quote.objectID)
        while session.fields[session.focus].key != "time" { _ = session.handle(.tab) }
        _ = session.handle(.control("u"))
        for character in "2026-02-30 10:00:00" { _ = session.handle(.character(character)) }
        #expect(session.save() == nil)
        let field = try #require(session.fields.first { $0.key == "time" })
        #expect(field.error?.contains("existing date") == true)
        var buffer = ScreenBuffer(size: TerminalSize(width: 100, height: 30))
        session.view().render(into: &buffer, area: buffer.bounds, theme: f.browser.theme)
        #expect(buffer.lines.contains { $0.contains("✗ expected an existing date") })
    }
}
