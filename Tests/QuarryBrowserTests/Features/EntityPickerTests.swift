import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// The entity picker (`Tab`) lists each entity with its row count and narrows as you type.
@MainActor
@Suite("Browser: the entity picker counts rows and narrows as you type")
struct EntityPickerTests {
    @Test("Tab lists every entity with its row count; typing narrows; Backspace widens; Enter opens the one chosen")
    func narrowsAsYouType() async throws {
        let f = try BrowserFixture()
        f.press(.tab)
        #expect(f.screen().contains { $0.contains("Ticker") && $0.contains("…") }, "the list shows at once; the counts come off the main queue")
        await f.browser.entityCountsSettled()
        var screen = f.screen()
        #expect(screen.contains { $0.contains("Ticker") && $0.contains("30 rows") })
        #expect(screen.contains { $0.contains("Quote") && $0.contains("60 rows") })
        #expect(screen.contains { $0.contains("Sector") && $0.contains("3 rows") })
        f.type("quo")
        screen = f.screen()
        #expect(screen.contains { $0.contains("Entity: quo") })
        #expect(f.browser.pickerNames == ["Quote"])
        f.type("x")
        #expect(f.screen().contains { $0.contains("no entity matches \"quox\"") })
        f.press(.backspace)
        #expect(f.browser.pickerNames == ["Quote"])
        f.press(.enter)
        await f.browser.fetchesSettled()
        #expect(f.screen()[0].contains("· Quote ·"))
    }

    @Test("row counts are grouped by thousands whatever the locale")
    func groupedCounts() {
        #expect(EntityPickerState.grouped(0) == "0")
        #expect(EntityPickerState.grouped(999) == "999")
        #expect(EntityPickerState.grouped(1000) == "1,000")
        #expect(EntityPickerState.grouped(1_000_000) == "1,000,000")
    }
}
