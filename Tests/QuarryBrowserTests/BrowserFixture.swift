import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
@_spi(Testing) import QuarryBrowser

/// A SQLite-backed stack of sectors and tickers, and a browser on it sectioned by sector.
@MainActor
struct BrowserFixture {
    let directory = TemporaryDirectory()
    let stack: PersistentStack
    let browser: Browser

    static let sectors = ["Energy", "Health", "Tech"]

    /// Seeds `tickers` tickers `T00`, `T01`, … spread round-robin over three sectors, each with two quotes.
    /// With `firstScreenRows` > 0 the browser shows a preview of that many rows first, the full
    /// index arriving once the test yields the main queue (``Browser/fullIndexSettled()``).
    init(tickers: Int = 30, size: TerminalSize = TerminalSize(width: 120, height: 40), readOnly: Bool = false,
         sectioned: Bool = true, firstScreenRows: Int = 0, historyFile: URL? = nil, usesIndexCache: Bool = false,
         batchSize: Int = BrowserConfiguration.defaultBatchSize,
         names: (Int) -> String = { "Company \($0)" }, configure: (inout BrowserConfiguration) -> Void = { _ in }) throws {
        var options = PersistentStack.Options()
        options.storeURL = directory.file("browse.sqlite")
        stack = try PersistentStack(model: TestModels.tickers(), options: options)
        let importer = stack.importerContext()
        try importer.performAndWait {
            let sectors = try Self.sectors.map { name in
                let sector = try importer.insertObject(entityName: "Sector")
                try sector.setValue(.string(name), forKey: "name")
                return sector
            }
            for n in 0..<tickers {
                let ticker = try importer.insertObject(entityName: "Ticker")
                try ticker.setValues(["symbol": .string(String(format: tickers > 100 ? "T%03d" : "T%02d", n)), "name": .string(names(n)),
                                      "price": .double(Double(n) * 10), "volume": .integer(Int64(n * 100))])
                try ticker.setObject(sectors[n % 3], forKey: "sector")
                for q in 0..<2 {
                    let quote = try importer.insertObject(entityName: "Quote")
                    try quote.setValues(["price": .double(Double(n + q)), "time": .date(Date(timeIntervalSince1970: Double(q)))])
                    try quote.setObject(ticker, forKey: "ticker")
                }
            }
            try importer.save()
        }
        var configuration = BrowserConfiguration(storeTitle: "browse.sqlite", entityName: "Ticker", sort: [SortKey("symbol")],
                                                 sectionKey: sectioned ? "sector.name" : nil, isReadOnly: readOnly)
        configuration.firstScreenRows = firstScreenRows
        configuration.historyFile = historyFile
        configuration.usesIndexCache = usesIndexCache
        configuration.batchSize = batchSize
        configure(&configuration)
        browser = try Browser(stack: stack, configuration: configuration)
        // Highlights last an hour here, so a slow machine never sees one expire mid-test.
        browser.testHooks.highlightDuration = 3600
        browser.prepareFrame(size: size)
    }

    /// Draws a frame at `size`, as the app does (a new size is adopted like a resize), and
    /// returns the screen's lines.
    func screen(_ size: TerminalSize = TerminalSize(width: 120, height: 40)) -> [String] {
        browser.prepareFrame(size: size)
        return browser.render(size: size).lines
    }

    /// Sends keys typed as text, then the given special keys.
    func type(_ text: String) {
        for character in text { browser.handle(.key(.character(character))) }
    }

    /// Sends one key.
    func press(_ key: QuarryTUI.Key) { browser.handle(.key(key)) }

    /// Answers the open prompt with `text` in place of what it suggests (Ctrl-U, the text,
    /// Enter); returns whether the prompt showed `suggested` first.
    func answerPrompt(suggesting suggested: String, with text: String) -> Bool {
        let shown = screen().contains { $0.contains(suggested) }
        press(.control("u"))
        type(text)
        press(.enter)
        return shown
    }

    /// Saves changes made by `body` in an importer context and waits for the merge into main.
    func importerSave(_ body: @escaping (ObjectContext) throws -> Void) async throws {
        let importer = stack.importerContext()
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let token = stack.addMergeObserver { _ in continuation.yield() }
        defer { token.cancel() }
        try importer.performAndWait {
            try body(importer)
            try importer.save()
        }
        _ = try await nextElement(of: stream, awaiting: "the importer's save to merge into the main context")
    }

    /// The ticker with `symbol` in `context`.
    static func ticker(_ symbol: String, in context: ObjectContext) throws -> ManagedObject {
        let found = try context.fetch(FetchRequest(entityName: "Ticker", predicate: PredicateKey("symbol") == .string(symbol)))
        guard let first = found.first else { throw FixtureError.missing(symbol) }
        return first
    }

    /// A fresh read of a ticker's attribute straight from the store (a new coordinator).
    func storedValue(of symbol: String, key: String) throws -> Value? {
        let store = try SQLiteStore(url: directory.file("browse.sqlite"), model: nil, options: .init(readOnly: true))
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "check"))
        return try context.performAndWait {
            let found = try context.fetch(FetchRequest(entityName: "Ticker", predicate: PredicateKey("symbol") == .string(symbol)))
            return try found.first?.value(forKey: key)
        }
    }

    enum FixtureError: Error { case missing(String) }
}

extension BrowserFixture {
    /// A read-only browser over the foreign database at `url` (any SQLite file or a Core Data
    /// store) showing `entityName` sorted by `sort`, as `quarry browse` opens one.
    @MainActor
    static func readOnlyBrowser(of url: URL, entityName: String, sort: [SortKey]) throws -> Browser {
        let database = try ForeignDatabase.open(path: url.path)
        var options = PersistentStack.Options()
        options.foreignDatabase = database
        options.readOnly = true
        let stack = try PersistentStack(model: database.model, options: options)
        return try Browser(stack: stack, configuration: BrowserConfiguration(storeTitle: url.lastPathComponent, entityName: entityName,
                                                                             sort: sort, isReadOnly: true))
    }
}

extension Array where Element == String {
    /// The first line containing `text`, if any.
    func line(containing text: String) -> String? { first { $0.contains(text) } }
    /// Whether any line contains `text`.
    func contains(text: String) -> Bool { contains { $0.contains(text) } }
}
