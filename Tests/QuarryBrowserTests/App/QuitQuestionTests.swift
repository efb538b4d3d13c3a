import Foundation
import Quarry
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

@MainActor
@Suite("Browser: the quit question over an open form")
struct QuitQuestionTests {
    /// The open form's session, if a form is open.
    func session(_ f: BrowserFixture) -> EditSession? {
        if case .form(let session) = f.browser.overlay { return session }
        return nil
    }

    /// Types `text` into the focused field after clearing it.
    func retype(_ text: String, _ f: BrowserFixture) {
        f.press(.control("u"))
        f.type(text)
    }

    @Test("Ctrl-C over an edit form asks; n returns to the form with every typed value intact")
    func ctrlCOverEditFormThenNo() throws {
        let f = try BrowserFixture()
        f.type("e")
        f.press(.tab)
        f.press(.tab)
        retype("77.5", f)
        let typed = try #require(session(f)).fields.map(\.text)
        f.browser.handle(.terminate(signal: SIGINT))
        #expect(f.screen().contains(text: "Quit and discard the unsaved edits? (y/n)"))
        #expect(!f.browser.wantsQuit)
        f.type("n")
        let back = try #require(session(f))
        #expect(back.fields.map(\.text) == typed)
        #expect(f.screen().contains(text: "Edit Ticker"))
        #expect(!f.browser.wantsQuit)
    }

    @Test("Ctrl-C over an add form asks; Esc returns to the form with its values; y quits with SIGINT")
    func ctrlCOverAddFormThenEscapeThenYes() throws {
        let f = try BrowserFixture()
        f.type("a")
        retype("NEWQ", f)
        let typed = try #require(session(f)).fields.map(\.text)
        f.browser.handle(.terminate(signal: SIGINT))
        #expect(f.screen().contains(text: "Quit and discard the new Ticker? (y/n)"))
        f.press(.escape)
        #expect(try #require(session(f)).fields.map(\.text) == typed)
        #expect(f.screen().contains(text: "New Ticker"))
        f.browser.handle(.terminate(signal: SIGINT))
        f.type("y")
        #expect(f.browser.wantsQuit)
        #expect(f.browser.quitSignal == SIGINT)
    }

    @Test("q on the table quits at once with no signal; SIGTERM and SIGHUP quit even over a form")
    func quitWithoutForm() throws {
        let f = try BrowserFixture()
        f.type("q")
        #expect(f.browser.wantsQuit)
        #expect(f.browser.quitSignal == nil)
        let g = try BrowserFixture()
        g.type("e")
        g.browser.handle(.terminate(signal: SIGTERM))
        #expect(g.browser.quitSignal == SIGTERM)
        let h = try BrowserFixture()
        h.browser.handle(.terminate(signal: SIGHUP))
        #expect(h.browser.quitSignal == SIGHUP)
    }

    @Test("Ctrl-C while the discard question is over a form asks about quitting; n returns to the form")
    func ctrlCOverTheDiscardQuestion() throws {
        let f = try BrowserFixture()
        f.type("e")
        retype("edited", f)
        let typed = try #require(session(f)).fields.map(\.text)
        f.press(.escape)
        #expect(f.screen().contains(text: "Discard the edits"))
        f.browser.handle(.terminate(signal: SIGINT))
        #expect(!f.browser.wantsQuit)
        #expect(f.screen().contains(text: "Quit and discard the unsaved edits? (y/n)"))
        f.type("n")
        #expect(try #require(session(f)).fields.map(\.text) == typed)
    }
}
