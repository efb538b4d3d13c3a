import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// Enter on a to-one field of an edit form opens a picker of the destination's objects.
@MainActor
@Suite struct ToOnePickerTests {
    /// Opens the edit form on T00 with the focus on its sector field.
    private func editSector(_ f: BrowserFixture) throws -> EditSession {
        f.press(.character("e"))
        guard case .form(let session) = f.browser.overlay else { throw CancellationError() }
        let sector = try #require(session.fields.firstIndex { $0.key == "sector" })
        while session.focus != sector { f.press(.tab) }
        return session
    }

    @Test func typingNarrowsAndEnterSetsTheField() async throws {
        let f = try BrowserFixture(sectioned: false)
        let session = try editSector(f)
        f.press(.enter)
        var screen = f.screen()
        #expect(screen.contains(text: "Sector:"))
        #expect(screen.contains(text: "Energy") && screen.contains(text: "Health") && screen.contains(text: "Tech"))
        f.press(.control("u"))
        f.type("ec")
        screen = f.screen()
        #expect(session.picker?.candidates.map(\.name) == ["Tech"])
        f.press(.enter)
        #expect(session.picker == nil)
        #expect(session.fields.first { $0.key == "sector" }?.text == "Tech")
        f.press(.control("s"))
        #expect(try f.storedValue(of: "T00", key: "price") != nil)
        let main = f.stack.mainContext
        #expect(try BrowserFixture.ticker("T00", in: main).object(forKey: "sector")?.value(forKey: "name") == .string("Tech"))
    }

    @Test func twoObjectsOfTheSameNameAreToldApartByThePick() async throws {
        // T00 and T01 are both named "Twin"; a quote's ticker is picked by name.
        let f = try BrowserFixture(sectioned: false, names: { $0 < 2 ? "Twin" : "Company \($0)" })
        f.press(.character(":"))
        f.type("entity Quote")
        f.press(.enter)
        await f.browser.fetchesSettled()
        f.press(.character("e"))
        guard case .form(let session) = f.browser.overlay else { throw CancellationError() }
        let field = try #require(session.fields.firstIndex { $0.key == "ticker" })
        while session.focus != field { f.press(.tab) }
        f.press(.enter)
        f.press(.control("u"))
        f.type("twin")
        #expect(session.picker?.candidates.count == 2)
        f.press(.down)
        let chosen = try #require(session.picker?.candidates[1].id)
        f.press(.enter)
        #expect(session.fields[field].picked == chosen)
        let quoteID = session.object.objectID
        f.press(.control("s"))
        let screen = f.screen()
        #expect(!screen.contains(text: "more than one Ticker"))
        #expect(screen.contains(text: "saved to disk"), "\(screen.suffix(3))")
        let quote = try f.stack.mainContext.existingObject(with: quoteID)
        #expect(try quote.object(forKey: "ticker")?.objectID == chosen)
    }

    @Test("the picker opens unfiltered, with the field's current value selected")
    func opensUnfilteredOnTheCurrentValue() throws {
        let f = try BrowserFixture(sectioned: false)
        f.type("j")  // T01, a Health ticker
        f.press(.character("e"))
        guard case .form(let session) = f.browser.overlay else { throw CancellationError() }
        let sector = try #require(session.fields.firstIndex { $0.key == "sector" })
        while session.focus != sector { f.press(.tab) }
        f.press(.enter)
        let picker = try #require(session.picker)
        #expect(picker.query.text.isEmpty)
        #expect(picker.candidates.map(\.name) == ["Energy", "Health", "Tech"])
        #expect(picker.candidates[picker.selected].name == "Health")
    }

    @Test func escClosesThePickerNotTheForm() throws {
        let f = try BrowserFixture(sectioned: false)
        let session = try editSector(f)
        f.press(.enter)
        f.press(.control("u"))
        f.type("zzz")
        #expect(f.screen().contains(text: "no Sector contains \"zzz\""))
        f.press(.escape)
        #expect(session.picker == nil)
        guard case .form = f.browser.overlay else { Issue.record("the form stays open"); return }
    }
}
