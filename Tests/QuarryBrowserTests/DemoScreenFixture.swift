import Foundation
import Quarry
import QuarryDemo
import QuarryTestSupport
import QuarryTUI
@_spi(Testing) import QuarryBrowser

/// The browser on a demo store, opened as `quarry demo` opens it, for the screen goldens:
/// nothing on screen varies from one run or machine to the next.
///
/// - The seed is the demo's own (its random sequence has a fixed seed), of ``rows`` tickers,
///   its time injected: a UTC midnight, which the browser shows as the date alone in every time
///   zone.
/// - The store is in a temporary folder; the title bar shows its file name only. It is seeded
///   before the browser's stack opens it, so no merge time shows.
/// - No live importer runs unless ``pauseImporter()`` starts one against a store whose write
///   lock another connection holds: it never saves, and the status line shows its alert.
/// - The index cache (a file in the user's cache folder), the prompt history and the
///   remote-change watcher are off: they are the machine's, not the screen's.
@MainActor
final class DemoScreenFixture {
    let directory = TemporaryDirectory()
    let stack: PersistentStack
    let browser: Browser

    /// Tickers seeded.
    static let rows = 1_000
    /// The seed's time: 2026-01-02 00:00:00 UTC.
    static let seedTime = Date(timeIntervalSince1970: 1_767_312_000)

    /// Seeds the store, opens the browser at `size` as `quarry demo` does (sectioned by sector,
    /// sorted by symbol, a preview first) and waits for the full index.
    init(size: TerminalSize) async throws {
        var options = PersistentStack.Options()
        options.storeURL = directory.file("demo.sqlite")
        options.watchesRemoteChanges = false
        // A busy store is found busy at once (``pauseImporter()``).
        options.busyTimeout = 0.05
        // Seeded through a stack of its own, as `quarry demo` reopens a store seeded before: the
        // browser's stack saw no merge, so its status line shows no "merged HH:MM:SS".
        try DemoSeeder(coordinator: PersistentStack(model: DemoModel.make(), options: options).writerCoordinator, time: Self.seedTime)
            .seed(rows: Self.rows)
        stack = try PersistentStack(model: DemoModel.make(), options: options)
        // As DemoCommand.run configures it, less what belongs to the machine (see above).
        var configuration = BrowserConfiguration(storeTitle: "demo.sqlite", entityName: "Ticker", sort: [SortKey("symbol")],
                                                 sectionKey: "sector.name")
        configuration.firstScreenRows = BrowserConfiguration.previewRows
        browser = try Browser(stack: stack, configuration: configuration)
        browser.testHooks.highlightDuration = 3600
        browser.prepareFrame(size: size)
        await browser.fullIndexSettled()
    }

    /// A live importer wired to the status line as `quarry demo` wires it, started while another
    /// connection holds the store's write lock; returns once the importer reports the pause.
    /// The caller ends both with ``PausedImporter/stop()``.
    func pauseImporter() async throws -> PausedImporter {
        let lock = try StoreWriteLock(url: directory.file("demo.sqlite"))
        let importer = DemoImporter(stack: stack, rate: 200)
        let (alerts, continuation) = AsyncStream.makeStream(of: String?.self)
        importer.observeAlert { [weak importer] in continuation.yield(importer?.alertText) }
        browser.liveStatus = { importer.alertText == nil ? importer.statusText : nil }
        browser.liveAlert = { importer.alertText }
        let paused = PausedImporter(importer: importer, lock: lock)
        importer.start()
        do {
            try await withDeadline(defaultEventDeadline, awaiting: "the importer to pause on the busy store") {
                for await alert in alerts where alert == "import paused: store busy" { return }
            }
        } catch {
            try paused.stop()
            throw error
        }
        return paused
    }

    /// The screen at `size`.
    func screen(_ size: TerminalSize) -> ScreenBuffer {
        browser.prepareFrame(size: size)
        return browser.render(size: size)
    }

    /// Sends keys typed as text.
    func type(_ text: String) {
        for character in text { browser.handle(.key(.character(character))) }
    }

    /// Sends one key.
    func press(_ key: QuarryTUI.Key) { browser.handle(.key(key)) }
}

/// A demo importer kept paused by another connection's write lock.
struct PausedImporter {
    let importer: DemoImporter
    let lock: StoreWriteLock

    /// Stops the importer (its save under way finds the store busy at once), then releases
    /// the lock: it never saves.
    func stop() throws {
        importer.stop()
        try lock.release()
    }
}
