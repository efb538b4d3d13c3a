import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

@MainActor
@Suite("Browser: u and Ctrl-R undo and redo the browser's own changes")
struct BrowserUndoTests {
    let editing = BrowserEditingTests()

    /// Another writer (its own coordinator on the file) sets a ticker's price and saves.
    func writeElsewhere(_ f: BrowserFixture, symbol: String, price: Double) throws {
        let store = try SQLiteStore(url: f.directory.file("browse.sqlite"), model: TestModels.tickers())
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "elsewhere"))
        try context.performAndWait {
            try BrowserFixture.ticker(symbol, in: context).setValue(.double(price), forKey: "price")
            try context.save()
        }
    }

    /// The number of quotes stored for a ticker (a fresh read of the file).
    func storedQuotes(_ f: BrowserFixture, of symbol: String) throws -> Int {
        let store = try SQLiteStore(url: f.directory.file("browse.sqlite"), model: nil, options: .init(readOnly: true))
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "check"))
        return try context.performAndWait {
            try context.count(for: FetchRequest(entityName: "Quote", predicate: PredicateKey("ticker.symbol") == .string(symbol)))
        }
    }

    @Test("u puts a saved edit back, in the table and on disk; Ctrl-R does it again")
    func undoEdit() throws {
        let f = try BrowserFixture()
        f.type("e")
        try editing.replace("price", with: "12.5", in: f)
        f.press(.control("s"))
        #expect(try f.storedValue(of: "T00", key: "price") == .double(12.5))
        f.type("u")
        var lines = f.screen()
        #expect(lines[39].contains("undid the edit of Ticker"))
        #expect(lines[39].contains("saved to disk"))
        #expect(lines[3].contains("0.00"))
        #expect(try f.storedValue(of: "T00", key: "price") == .double(0))
        f.press(.control("r"))
        lines = f.screen()
        #expect(lines[39].contains("redid the edit of Ticker"))
        #expect(lines[3].contains("12.50"))
        #expect(try f.storedValue(of: "T00", key: "price") == .double(12.5))
        f.press(.control("r"))
        #expect(f.screen()[39].contains("nothing to redo"))
    }

    @Test("u takes back an add; a delete comes back with its cascade")
    func undoAddAndDelete() throws {
        let f = try BrowserFixture()
        f.type("a")
        try editing.focus("symbol", in: f)
        f.type("NEW1")
        f.press(.control("s"))
        #expect(try f.storedValue(of: "NEW1", key: "symbol") == .string("NEW1"))
        f.type("u")
        #expect(f.screen()[39].contains("undid the add of Ticker NEW1"))
        #expect(try f.storedValue(of: "NEW1", key: "symbol") == nil)

        f.type("g")
        f.type("d")
        f.type("y")
        #expect(try f.storedValue(of: "T00", key: "symbol") == nil)
        #expect(try storedQuotes(f, of: "T00") == 0)
        f.type("u")
        let lines = f.screen()
        #expect(lines[39].contains("undid the delete of Ticker"), "\(lines[39])")
        #expect(lines[39].contains("and 2 related objects"))
        #expect(try f.storedValue(of: "T00", key: "symbol") == .string("T00"))
        #expect(try f.storedValue(of: "T00", key: "price") == .double(0))
        #expect(try storedQuotes(f, of: "T00") == 2)
        #expect(lines.contains { $0.hasPrefix("T00") })
    }

    @Test("an undo that would overwrite another writer's change is refused and changes nothing")
    func refused() throws {
        let f = try BrowserFixture()
        f.type("e")
        try editing.replace("price", with: "12.5", in: f)
        f.press(.control("s"))
        try writeElsewhere(f, symbol: "T00", price: 77)
        f.type("u")
        let status = f.screen()[39]
        #expect(status.contains("cannot undo the edit of Ticker"), "\(status)")
        #expect(status.contains("'price' was changed by another writer"))
        #expect(try f.storedValue(of: "T00", key: "price") == .double(77))
    }

    @Test("u in a read-only browser says so")
    func readOnly() throws {
        let f = try BrowserFixture(readOnly: true)
        f.type("u")
        #expect(f.screen()[39].contains("read-only"))
    }
}
