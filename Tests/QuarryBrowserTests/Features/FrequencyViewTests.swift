import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// The frequency view (`F`, `:freq KEYPATH`) on the in-memory screen: a row per distinct value
/// with its count, percent and bar, kept live from an importer's saves, Enter showing a value's
/// rows and Esc coming back.
@MainActor
@Suite("Browser: the frequency view")
struct FrequencyViewTests {
    /// An unsectioned fixture with the column cursor on the `sector` column.
    func onSectorColumn(tickers: Int = 30) throws -> BrowserFixture {
        let f = try BrowserFixture(tickers: tickers, sectioned: false)
        f.type(":col sector")
        f.press(.enter)
        return f
    }

    /// The frequency view's rows on `screen`: value and count, in order.
    func rows(_ screen: [String]) -> [(value: String, count: Int)] {
        screen.dropFirst(2).dropLast().compactMap { line in
            guard let range = line.range(of: #" +\d+ +\d+\.\d( |$)"#, options: .regularExpression), range.lowerBound > line.startIndex,
                  let count = line[range].split(separator: " ").first.flatMap({ Int($0) }) else { return nil }
            return (String(line[..<range.lowerBound]), count)
        }
    }

    /// Inserts `n` tickers of sector `sector` in `context`.
    static func insert(_ n: Int, in sector: String, context: ObjectContext, from start: Int = 100) throws {
        let found = try context.fetch(FetchRequest(entityName: "Sector", predicate: PredicateKey("name") == .string(sector)))
        let owner = try #require(found.first)
        for k in 0..<n {
            let ticker = try context.insertObject(entityName: "Ticker")
            try ticker.setValues(["symbol": .string("N\(start + k)"), "price": .double(1), "volume": .integer(1)])
            try ticker.setObject(owner, forKey: "sector")
        }
    }

    @Test("F on the sector column: a row per sector with count, percent and bar, sorted by count; Esc closes")
    func countsPerValue() throws {
        let f = try onSectorColumn()
        f.type("F")
        let screen = f.screen()
        #expect(screen[0].contains("frequency of sector.name"), "\(screen[0])")
        #expect(screen[1].contains("sector.name") && screen[1].contains("count ▼") && screen[1].contains("%"), "\(screen[1])")
        let found = rows(screen)
        #expect(found.map(\.value) == ["Energy", "Health", "Tech"], "\(found)")
        #expect(found.map(\.count) == [10, 10, 10])
        #expect(screen[2].contains("33.3"))
        #expect(screen[2].contains("█"), "a bar: \(screen[2])")
        #expect(screen[39].contains("sector.name: value 1/3") && screen[39].contains("30 Ticker objects"), "\(screen[39])")
        f.press(.escape)
        #expect(f.browser.frequencyView == nil)
        #expect(f.screen()[39].contains("row 1/30"))
    }

    @Test("an importer's saves change counts and bars in place, move rows, add new values and drop emptied ones, flashing")
    func liveFromTheImporter() async throws {
        let f = try onSectorColumn()
        f.type("F")
        await f.browser.frequencyViewSettled()
        let view = try #require(f.browser.frequencyView)
        try await f.importerSave { context in try Self.insert(5, in: "Tech", context: context) }
        var screen = f.screen()
        var found = rows(screen)
        #expect(found.map(\.value) == ["Tech", "Energy", "Health"], "Tech moved to the top: \(found)")
        #expect(found.map(\.count) == [15, 10, 10])
        #expect(view.isFlashing(0, now: ResultsTable.uptime()), "the changed row flashes")
        #expect(!view.isFlashing(1, now: ResultsTable.uptime()))
        #expect(screen[39].contains("35 Ticker objects"), "\(screen[39])")
        #expect(screen[39].contains("live, last update") && screen[39].contains("5 objects, 1 value, 1 store query"), "\(screen[39])")
        // The inserted tickers' sector names were read in one query restricted to them.
        #expect(view.lastUpdate?.recomputed == false)
        // A new value appears; an emptied one leaves.
        try await f.importerSave { context in
            let sector = try context.insertObject(entityName: "Sector")
            try sector.setValue(.string("Mining"), forKey: "name")
            let ticker = try context.insertObject(entityName: "Ticker")
            try ticker.setValues(["symbol": .string("M1"), "price": .double(1)])
            try ticker.setObject(sector, forKey: "sector")
            let energy = try context.fetch(FetchRequest(entityName: "Ticker", predicate: PredicateKey("sector.name") == .string("Energy")))
            for ticker in energy { context.delete(ticker) }
        }
        screen = f.screen()
        found = rows(screen)
        #expect(found.map(\.value) == ["Tech", "Health", "Mining"], "\(found)")
        #expect(found.map(\.count) == [15, 10, 1])
        #expect(found.map(\.count).reduce(0, +) == f.browser.table.rowCount, "the counts sum to the table's total")
    }

    @Test("the cursor stays on its value as rows move")
    func cursorFollowsItsValue() async throws {
        let f = try onSectorColumn()
        f.type("F")
        await f.browser.frequencyViewSettled()
        f.type("jj")
        #expect(f.browser.frequencyView?.cursorValue == .string("Tech"))
        try await f.importerSave { context in try Self.insert(2, in: "Tech", context: context) }
        #expect(f.browser.frequencyView?.cursorValue == .string("Tech"))
        #expect(f.browser.frequencyView?.cursor == 0)
        #expect(f.screen()[39].contains("value 1/3"))
    }

    @Test("Enter on a value shows only its rows; Esc comes back to the view, still live")
    func enterFiltersAndEscReturns() async throws {
        let f = try onSectorColumn()
        f.type("F")
        await f.browser.frequencyViewSettled()
        f.type("j")  // Health
        f.press(.enter)
        await f.browser.fetchesSettled()
        #expect(f.browser.frequencyView == nil)
        #expect(f.browser.table.rowCount == 10)
        #expect(f.browser.table.query.filter == "sector.name == 'Health'")
        var screen = f.screen()
        #expect(screen[39].contains("Esc back to the frequencies"), "\(screen[39])")
        let shown = screen.dropFirst(2).dropLast().filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(shown.count == 10 && shown.allSatisfy { $0.contains("Health") }, "\(shown)")
        // Live while hidden: the counts it shows on return are current.
        try await f.importerSave { context in try Self.insert(1, in: "Energy", context: context) }
        f.press(.escape)
        await f.browser.fetchesSettled()
        #expect(f.browser.table.query.filter == nil)
        screen = f.screen()
        #expect(rows(screen).first.map { $0 == ("Energy", 11) } == true, "\(rows(screen))")
        #expect(f.browser.frequencyView?.cursorValue == .string("Health"))
    }

    @Test("the table's filter is respected, and Enter adds the value to it")
    func respectsTheFilter() async throws {
        let f = try onSectorColumn()
        f.type(":filter price >= 100")
        f.press(.enter)
        await f.browser.fetchesSettled()
        f.type("F")
        let found = rows(f.screen())
        #expect(found.map(\.count).reduce(0, +) == 20, "\(found)")
        f.press(.enter)
        await f.browser.fetchesSettled()
        #expect(f.browser.table.query.filter == "(price >= 100) AND sector.name == '\(found[0].value)'")
        #expect(f.browser.table.rowCount == found[0].count)
    }

    @Test(":freq KEYPATH counts any key path, Tab completes it; an unknown one is refused in the prompt at its column")
    func freqCommand() throws {
        let f = try BrowserFixture(sectioned: false)
        f.type(":freq sector.nosuch")
        f.press(.enter)
        guard case .prompt(let state) = f.browser.overlay else {
            Issue.record("the prompt stays open with the error")
            return
        }
        #expect(state.error?.column == 6, "\(String(describing: state.error))")
        #expect(state.error?.message.contains("sector.nosuch") == true, "\(String(describing: state.error))")
        #expect(f.screen().contains(text: "cannot count 'sector.nosuch'"))
        f.press(.escape)
        f.type(":freq sec")
        f.press(.tab)
        #expect(f.screen()[39].contains(":freq sector.name"), "\(f.screen()[39])")
        f.press(.enter)
        #expect(f.browser.frequencyView?.keyPath == "sector.name")
        f.press(.escape)
        f.type(":freq name")
        f.press(.enter)
        #expect(f.browser.frequencyView?.rowCount == 30, "thirty distinct names")
    }

    @Test("numbers are binned over 20 distinct values; < and > change the width; Enter shows a bin's rows; live")
    func numericBins() async throws {
        let f = try BrowserFixture(sectioned: false)
        f.type(":freq price")  // 0, 10, …, 290: bins of 50
        f.press(.enter)
        await f.browser.frequencyViewSettled()
        var screen = f.screen()
        #expect(screen[39].contains("price: bin 1/6") && screen[39].contains("bins of 50 (< >)"), "\(screen[39])")
        var found = rows(screen)
        #expect(found.count == 6 && found.allSatisfy { $0.count == 5 }, "\(found)")
        #expect(screen[2].hasPrefix("[0, 50)"), "\(screen[2])")
        f.type("<")
        screen = f.screen()
        #expect(screen[39].contains("bins of 20"), "\(screen[39])")
        #expect(rows(screen).count == 15)
        f.type(">>")
        screen = f.screen()
        #expect(screen[39].contains("bins of 100"), "\(screen[39])")
        found = rows(screen)
        #expect(found.map(\.count) == [10, 10, 10], "\(found)")
        // A ticker priced 1,000 makes a new bin; the others keep their counts.
        try await f.importerSave { context in
            let ticker = try context.insertObject(entityName: "Ticker")
            try ticker.setValues(["symbol": .string("BIG"), "price": .double(1000)])
        }
        screen = f.screen()
        #expect(screen.contains(text: "[1000, 1100)"), "\(screen)")
        #expect(screen[39].contains("31 Ticker objects"))
        f.type("g")
        f.press(.enter)
        await f.browser.fetchesSettled()
        #expect(f.browser.table.query.filter == "price >= 0 AND price < 100", "\(String(describing: f.browser.table.query.filter))")
        #expect(f.browser.table.rowCount == 10)
        f.press(.escape)
        await f.browser.fetchesSettled()
        #expect(f.browser.frequencyView?.bins != nil)
    }

    @Test("date bins step from a second to a year and name their bounds")
    func dateBins() {
        let day = 86400.0
        var bins = FrequencyBins(kind: .date, values: [(.date(Date(timeIntervalSinceReferenceDate: 0)), 2),
                                                      (.date(Date(timeIntervalSinceReferenceDate: 10 * day)), 3)])
        #expect(bins.widthText == "1 day")
        bins.sort(byBin: true, ascending: true)
        #expect(bins.order == [0, 10])
        #expect(bins.label(of: 0) == "[2001-01-01, 2001-01-02)")
        let stepped = bins.step(wider: true)
        #expect(stepped)
        #expect(bins.widthText == "1 week")
        bins.sort(byBin: true, ascending: true)
        #expect(bins.order.map { bins.count(of: $0) } == [2, 3])
        bins.set(.date(Date(timeIntervalSinceReferenceDate: 0)), count: 0)
        bins.sort(byBin: false, ascending: false)
        #expect(bins.order == [1], "the emptied bin left")
    }

    @Test("s and S sort by the column under the cursor (once live): the values, or the counts")
    func sorting() async throws {
        let f = try onSectorColumn()
        f.type("F")
        f.type("S")
        #expect(f.screen()[39].contains("still counting"), "a sort waits for the view to go live: \(f.screen()[39])")
        await f.browser.frequencyViewSettled()
        #expect(f.screen()[39].contains("live, counted in"), "\(f.screen()[39])")
        f.type("S")  // the value column, descending
        var found = rows(f.screen())
        #expect(found.map(\.value) == ["Tech", "Health", "Energy"], "\(found)")
        #expect(f.screen()[1].contains("sector.name ▼"))
        f.type("ls")
        found = rows(f.screen())
        #expect(f.screen()[1].contains("count ▲"), "\(f.screen()[1])")
        #expect(found.map(\.count) == [10, 10, 10])
    }

    @Test("bars are drawn in eighth blocks, the largest count filling the column")
    func bars() {
        #expect(FrequencyBar.text(value: 10, maximum: 10, width: 4) == "████")
        #expect(FrequencyBar.text(value: 5, maximum: 10, width: 4) == "██")
        #expect(FrequencyBar.text(value: 1, maximum: 16, width: 2) == "▏")
        #expect(FrequencyBar.text(value: 0, maximum: 10, width: 4) == "")
        #expect(AsciiFallback.glyph(for: "█") == "#")
        #expect(AsciiFallback.glyph(for: "▍") == "+")
    }

    @Test("on a Core Data store (read-only): :freq shelf.name over Item and its sub-entities counts as the grouped fetch through the join; Enter shows a shelf's items")
    func onACoreDataStore() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Library.sqlite")
        try CoreDataFixture.library.write(to: url)
        let browser = try BrowserFixture.readOnlyBrowser(of: url, entityName: "Item", sort: [SortKey("title")])
        let stack = browser.stack
        let size = TerminalSize(width: 100, height: 20)
        func screen() -> [String] {
            browser.prepareFrame(size: size)
            return browser.render(size: size).lines
        }
        for character in ":freq shelf.name" { browser.handle(.key(.character(character))) }
        browser.handle(.key(.enter))
        await browser.frequencyViewSettled()
        let shown = rows(screen())
        var request = FetchRequest(entityName: "Item")
        request.propertiesToFetch = try FetchedProperty.list(parsing: "shelf.name, count(), count(shelf.name)")
        request.propertiesToGroupBy = ["shelf.name"]
        let expected = try stack.mainContext.fetchDictionaries(request)
        #expect(shown.count == expected.count && !shown.isEmpty, "\(shown) vs \(expected)")
        for row in expected {
            let name = row["shelf.name"].map { ValueText.format($0) } ?? ""
            let count = row["count()"].flatMap { if case .integer(let n) = $0 { Int(n) } else { nil } }
            #expect(shown.contains { $0.value.trimmingCharacters(in: .whitespaces) == (name.isEmpty ? "(none)" : name) && $0.count == count },
                    "\(name): \(shown)")
        }
        let fiction = try #require(shown.firstIndex { $0.value.hasPrefix("Fiction") })
        for _ in 0..<fiction { browser.handle(.key(.down)) }
        browser.handle(.key(.enter))
        await browser.fetchesSettled()
        let filtered = screen()
        #expect(filtered.last?.contains("row 1/3") == true, "the shelf's three items: \(filtered.last ?? "")")
    }
}
