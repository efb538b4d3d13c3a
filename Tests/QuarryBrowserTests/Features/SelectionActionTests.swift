import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// ``BrowserConfiguration/selectionAction``: what Enter does on a table row.
@MainActor
@Suite struct SelectionActionTests {
    /// The calls a custom action received.
    @MainActor final class Calls {
        var ids: [ObjectID] = []
    }

    private func fixture(_ action: SelectionAction, sectioned: Bool = false, readOnly: Bool = false) throws -> BrowserFixture {
        try BrowserFixture(readOnly: readOnly, sectioned: sectioned, configure: { $0.selectionAction = action })
    }

    /// The title of the detail page on top, if one is open.
    private func detailTitle(_ f: BrowserFixture) -> String? {
        if case .detail(let pages) = f.browser.overlay { return pages.last?.title }
        return nil
    }

    @Test func openDetailIsTheDefault() throws {
        let f = try BrowserFixture(sectioned: false)
        f.press(.enter)
        #expect(detailTitle(f) == "Ticker Company 0")
        let explicit = try fixture(.openDetail)
        explicit.press(.down)
        explicit.press(.enter)
        #expect(detailTitle(explicit) == "Ticker Company 1")
        #expect(explicit.screen().contains(text: "Ticker Company 1"))
    }

    @Test func editOpensTheFormOnTheCursorRow() throws {
        let f = try fixture(.edit)
        f.press(.down)
        f.press(.enter)
        guard case .form(let session) = f.browser.overlay else {
            Issue.record("Enter opens the edit form")
            return
        }
        #expect(session.fields.first { $0.key == "symbol" }?.text == "T01")
        #expect(f.screen().contains(text: "Edit Ticker"))
    }

    @Test func editInAReadOnlyBrowserShowsTheDetailPage() throws {
        let f = try fixture(.edit, readOnly: true)
        f.press(.enter)
        #expect(detailTitle(f) == "Ticker Company 0")
    }

    @Test func followingAToOneOpensTheRelatedObject() throws {
        let f = try fixture(.follow(relationship: "sector"))
        f.press(.down)
        f.press(.enter)
        #expect(detailTitle(f) == "Sector Health")
        #expect(f.screen().contains(text: "Sector Health"))
    }

    @Test func followingAToManyOpensItsTable() async throws {
        let f = try fixture(.follow(relationship: "quotes"))
        f.press(.enter)
        await f.browser.fetchesSettled()
        #expect(f.browser.table.entity.name == "Quote")
        #expect(f.browser.table.rowCount == 2)
        #expect(f.screen()[0].contains("quotes of Ticker Company 0"))
        // Esc goes back to the tickers.
        f.press(.escape)
        await f.browser.fetchesSettled()
        #expect(f.browser.table.entity.name == "Ticker")
    }

    @Test func followingAnEmptyToOneSaysSo() async throws {
        let f = try fixture(.follow(relationship: "sector"))
        try await f.importerSave { context in
            try BrowserFixture.ticker("T00", in: context).setObject(nil, forKey: "sector")
        }
        f.press(.enter)
        #expect(f.browser.overlay == nil)
        #expect(f.screen().contains(text: "sector: none"))
    }

    @Test func aCustomActionIsCalledOnceWithTheCursorRowsID() throws {
        let calls = Calls()
        let f = try fixture(.custom { id in calls.ids.append(id) })
        f.press(.down)
        f.press(.down)
        f.press(.enter)
        let t02 = try BrowserFixture.ticker("T02", in: f.stack.mainContext).objectID
        #expect(calls.ids == [t02])
        #expect(f.browser.overlay == nil)
    }

    @Test func enterOnACollapsedSectionHeaderStillExpandsIt() throws {
        let calls = Calls()
        let f = try fixture(.custom { id in calls.ids.append(id) }, sectioned: true)
        f.type("za")
        #expect(f.screen()[2].hasPrefix("▸ Energy (10) · collapsed"))
        f.press(.enter)
        let screen = f.screen()
        #expect(!screen[2].contains("collapsed"))
        #expect(screen[3].hasPrefix("T00"))
        #expect(calls.ids.isEmpty)
        f.press(.down)
        f.press(.enter)
        #expect(calls.ids.count == 1)
    }

    @Test func parsingTheCommandLineValue() throws {
        guard case .openDetail = try SelectionAction.parse("detail") else { Issue.record("detail"); return }
        guard case .edit = try SelectionAction.parse("edit") else { Issue.record("edit"); return }
        guard case .follow("sector") = try SelectionAction.parse("follow:sector") else { Issue.record("follow"); return }
        #expect(throws: SelectionActionError("--on-enter open: expected detail, edit or follow:RELATIONSHIP")) { try SelectionAction.parse("open") }
        #expect(throws: SelectionActionError.self) { try SelectionAction.parse("follow:") }
    }

    @Test func aFollowedRelationshipMustBeTheEntitys() throws {
        let ticker = try #require(TestModels.tickers().entity(named: "Ticker"))
        try SelectionAction.follow(relationship: "quotes").validate(for: ticker)
        try SelectionAction.edit.validate(for: ticker)
        #expect(throws: SelectionActionError("--on-enter follow:sectr: Ticker has no relationship 'sectr' (it has quotes, sector, tags)")) {
            try SelectionAction.follow(relationship: "sectr").validate(for: ticker)
        }
    }
}
