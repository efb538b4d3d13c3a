import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

@MainActor
@Suite("Browser: editing in a creator context")
struct BrowserEditingTests {
    /// Focuses the field `label` of the open form and replaces its text with `text`.
    func replace(_ label: String, with text: String, in f: BrowserFixture) throws {
        try focus(label, in: f)
        f.press(.control("u"))
        f.type(text)
    }

    /// Focuses the form field named `label` (Tab cycles through fields).
    func focus(_ label: String, in f: BrowserFixture) throws {
        for _ in 0..<20 {
            if case .form(let session) = f.browser.overlay, session.fields[session.focus].key == label { return }
            f.press(.tab)
        }
        Issue.record("no field \(label)")
    }

    @Test("Ctrl-S saves the edit to main and to disk")
    func saveReachesDisk() throws {
        let f = try BrowserFixture()
        f.type("e")
        #expect(f.screen().contains(text: "Edit Ticker"))
        try replace("price", with: "12.5", in: f)
        #expect(f.screen()[39].contains("✎ edits pending"))
        f.press(.control("s"))
        let lines = f.screen()
        #expect(lines[39].contains("saved to disk"))
        #expect(lines[3].contains("12.50"))
        #expect(try f.storedValue(of: "T00", key: "price") == .double(12.5))
    }

    @Test("Esc discards the whole child context: nothing reaches main or disk")
    func discard() throws {
        let f = try BrowserFixture()
        f.type("e")
        try replace("price", with: "99", in: f)
        f.press(.escape)
        #expect(f.screen().contains(text: "Discard the edits"))
        f.type("y")
        let lines = f.screen()
        #expect(lines[3].contains("0.00"))
        #expect(!f.stack.mainContext.hasChanges)
        #expect(try f.storedValue(of: "T00", key: "price") == .double(0))
    }

    @Test("a value that does not parse or fails validation is shown under its field and nothing is saved")
    func validation() throws {
        let f = try BrowserFixture()
        f.type("e")
        try replace("price", with: "abc", in: f)
        f.press(.control("s"))
        var lines = f.screen()
        #expect(lines.contains(text: "✗ expected a number"))
        f.press(.control("u"))
        f.type("-5")
        f.press(.control("s"))
        lines = f.screen()
        #expect(lines.contains(text: "✗ value -5 is below the minimum 0") || lines.contains(text: "below the minimum"))
        try replace("symbol", with: "bad symbol", in: f)
        f.press(.control("s"))
        #expect(f.screen().contains(text: "✗"))
        #expect(try f.storedValue(of: "T00", key: "price") == .double(0))
        f.press(.escape)
        f.type("y")
    }

    @Test("a to-one relationship is edited by its display value")
    func relationshipField() throws {
        let f = try BrowserFixture()
        f.type("e")
        try replace("sector", with: "Nowhere", in: f)
        f.press(.control("s"))
        #expect(f.screen().contains(text: "✗ no Sector with name \"Nowhere\""))
        f.press(.control("u"))
        f.type("Tech")
        f.press(.control("s"))
        let lines = f.screen()
        #expect(lines[39].contains("saved to disk"))
        #expect(lines[39].contains("Tech"))
    }

    @Test("a adds an object through the same form")
    func add() throws {
        let f = try BrowserFixture()
        f.type("a")
        #expect(f.screen().contains(text: "New Ticker"))
        try focus("symbol", in: f)
        f.type("NEW1")
        try focus("sector", in: f)
        f.type("Energy")
        f.press(.control("s"))
        let lines = f.screen()
        #expect(lines[39].contains("added; saved to disk"))
        #expect(lines[39].contains("row 1/31") || lines.contains(text: "NEW1"))
        #expect(try f.storedValue(of: "NEW1", key: "symbol") == .string("NEW1"))
    }

    @Test("d says how many objects the delete rules remove, and deletes them on y")
    func delete() throws {
        let f = try BrowserFixture()
        f.type("d")
        #expect(f.screen().contains(text: "Delete this Ticker and 2 related objects (delete rules)? (y/n)"))
        f.type("n")
        #expect(try f.storedValue(of: "T00", key: "symbol") == .string("T00"))
        f.type("d")
        f.type("y")
        let lines = f.screen()
        #expect(lines[39].contains("deleted 3 objects"))
        #expect(lines[3].hasPrefix("T03"))
        #expect(try f.storedValue(of: "T00", key: "symbol") == nil)
    }

    @Test("an importer write to the same object while the form is open is reported as overwritten")
    func conflict() async throws {
        let f = try BrowserFixture()
        f.type("e")
        try replace("price", with: "5", in: f)
        try await f.importerSave { context in
            try BrowserFixture.ticker("T00", in: context).setValue(.double(42), forKey: "price")
        }
        f.press(.control("s"))
        let lines = f.screen()
        #expect(lines[39].contains("saved; price: overwrote 42.00 written elsewhere with 5"))
        #expect(try f.storedValue(of: "T00", key: "price") == .double(5))
    }

    @Test("a write by another process while the form is open is overwritten on disk and named on the status line")
    func overwriteAnotherProcess() throws {
        let f = try BrowserFixture()
        f.type("e")
        try replace("price", with: "5", in: f)
        // A second stack on the file stands for another process: the browser's main context never hears of it.
        var options = PersistentStack.Options()
        options.storeURL = f.directory.file("browse.sqlite")
        let other = try PersistentStack(model: TestModels.tickers(), options: options)
        let importer = other.importerContext()
        try importer.performAndWait {
            let ticker = try BrowserFixture.ticker("T00", in: importer)
            try ticker.setValues(["price": .double(42), "name": .string("Renamed")])
            try importer.save()
        }
        f.press(.control("s"))
        let lines = f.screen()
        #expect(lines[39].contains("saved; price: overwrote 42.00 written elsewhere with 5"))
        #expect(try f.storedValue(of: "T00", key: "price") == .double(5))
        #expect(try f.storedValue(of: "T00", key: "name") == .string("Renamed"))
    }

    @Test("read-only disables editing")
    func readOnly() throws {
        let f = try BrowserFixture(readOnly: true)
        for key in ["e", "a", "d"] {
            f.type(key)
            #expect(f.screen()[39].contains("read-only"))
            #expect(f.browser.overlay == nil)
        }
    }
}
