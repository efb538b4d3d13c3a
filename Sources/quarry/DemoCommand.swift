import ArgumentParser
import Foundation
import Quarry
import QuarryBrowser
import QuarryDemo

/// `quarry demo`: creates (or reopens) the stock-ticker demo store and seeds it.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Open the browser on a live stock-ticker demo store.",
        discussion: """
            Creates (or reopens) a store of sectors, tickers and quotes, seeds it with --rows tickers, \
            starts a background importer that keeps inserting and updating tickers through an importer \
            context (--rate rows a second), and opens the browser sectioned by sector. The store lives \
            at --store PATH (or a postgres:// store URL), or at $XDG_DATA_HOME/quarry/demo.sqlite \
            (~/.local/share/quarry/demo.sqlite). \
            A store whose seed finished is reused as it is; a store whose seed was interrupted (the \
            process killed mid-seed) is refused. The importer pauses while another process holds the \
            store's write lock ("import paused: store busy") and retries. With --import-only there is \
            no user interface: the importer prints a line per save (rows inserted and updated, conflicts \
            resolved by the merge policy) and runs until the process is stopped; SIGINT or SIGTERM \
            lets the save under way finish, prints the totals and exits with 128 + the signal \
            (130, 143). \
            The seed shows its progress (tickers, rate, time left) on standard error (--quiet: \
            not); Ctrl-C during it stops after the chunk under way, says how many tickers the \
            saved chunks hold and exits with status 130 (the store is then an interrupted seed). \
            Press ? in the browser for every key.
            """
    )

    // Unconditional: a negative number is read as the value (and refused by validate() with
    // the reason), not as an option.
    @Option(name: .long, parsing: .unconditional, help: "How many tickers to seed into a new store.")
    var rows = 100_000

    @Option(name: .long, parsing: .unconditional, help: "Rows the live importer writes per second (inserts and updates).")
    var rate = 200

    @Option(name: .long, help: "Where to keep the demo store (a path or a postgres:// URL; created if absent, reused if present).")
    var store: String?

    @OptionGroup var themeOption: ThemeOption

    @Option(name: .long, help: "A TOML file of cell formats ([Ticker.price] number = 2; see quarry browse --help).")
    var formats: String?

    @Flag(name: .long, help: "Create and seed the store, then exit without a user interface.")
    var seedOnly = false

    @OptionGroup var mouseOption: MouseOption

    @Flag(name: .long, help: "Do not start the live importer.")
    var noImport = false

    @Flag(name: .long, help: "Create and seed the store if needed, then run the live importer without a user interface until stopped.")
    var importOnly = false

    @OptionGroup var quietOption: QuietOption

    func validate() throws {
        guard rows >= 0 else { throw ValidationError("--rows must be 0 or more (got \(rows))") }
        guard rate > 0 else { throw ValidationError("--rate must be at least 1 (got \(rate))") }
        guard !(importOnly && (seedOnly || noImport)) else {
            throw ValidationError("--import-only cannot be combined with --seed-only or --no-import")
        }
    }

    func run() async throws {
        let location = store.map(StoreLocation.init(newStoreAt:)) ?? .sqliteFile(path: PersistentStack.defaultStoreURL(name: "demo").path)
        let isURL = location.isPostgreSQL
        let url = location.fileURL ?? URL(fileURLWithPath: "/")
        // What messages call the store: its path, or its URL without the password.
        let shown = isURL ? location.shown : url.path
        let model = try DemoModel.make()
        let cellFormats = try BrowseCommand.cellFormats(formats, model: model)
        let stack: PersistentStack
        if isURL {
            stack = try PersistentStack(model: model, options: try StoreOpening.stackOptions(for: location))
        } else {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            var options = PersistentStack.Options()
            options.storeURL = url
            // Seeding alone watches for nobody's commits; a watcher would also queue a merge for
            // the checkpoint below, and that merge, still pending at exit, kept the main store's
            // connections open: the `-wal` and `-shm` stayed beside the file now and then.
            options.watchesRemoteChanges = !seedOnly
            stack = try PersistentStack(model: model, options: options)
        }
        // Two demos started at once on a new store must not both seed it: the check and the
        // seeding run under an exclusive lock on the store's folder (never on the store file
        // itself, whose locks belong to SQLite). A PostgreSQL store has no folder: two demos
        // seeding a new one at once are not kept apart (start one first).
        try withFolderLock(isURL ? nil : url.deletingLastPathComponent()) {
            switch try DemoState.seed(in: stack.writerCoordinator) {
            case .absent:
                let seconds = try measure { try seedShowingProgress(stack, shown: shown) }
                if seedOnly { print("seeded \(rows) tickers into \(shown) in \(String(format: "%.2f", seconds)) s") }
            case .finished(let tickers):
                if seedOnly { print("reusing \(shown) (\(tickers) tickers)") }
            case .interrupted(let written, let target):
                throw DemoError.interruptedSeed(path: shown, written: written, target: target)
            case .unrecorded(let tickers):
                throw DemoError.unrecordedSeed(path: shown, tickers: tickers)
            }
        }
        if seedOnly {
            // Left for other programs (benchmarks, sqlite3, a browser): the file alone holds it.
            // (Not when another program is reading it meanwhile: the log then stays, whole.)
            try (stack.writerCoordinator.store as? SQLiteStore)?.checkpointTruncatingLog()
            print(try StoreStatistics(coordinator: stack.writerCoordinator).text())
            return
        }
        if importOnly {
            let (importer, signal) = HeadlessImport.run(stack: stack, rate: rate)
            try Self.report(importer)
            // Stopped by a signal (after the save under way and the totals): 130 for SIGINT,
            // 143 for SIGTERM, as the browser exits, so scripts can tell it from a clean end.
            if let signal { throw ExitCode(128 + signal) }
            return
        }
        let importer = noImport ? nil : DemoImporter(stack: stack, rate: rate)
        var configuration = BrowserConfiguration(
            storeTitle: isURL ? shown : url.lastPathComponent, entityName: "Ticker", sort: [SortKey("symbol")], sectionKey: "sector.name")
        configuration.usesIndexCache = true
        configuration.usesMouse = !mouseOption.noMouse
        configuration.cellFormats = cellFormats
        configuration.firstScreenRows = BrowserConfiguration.previewRows
        var liveStatus: (@MainActor () -> String?)?
        var liveAlert: (@MainActor () -> String?)?
        var observeLiveAlert: ((@escaping @Sendable () -> Void) -> Void)?
        if let importer {
            // A pause or a stop is an alert (shown whole, before anything else); the rate is not.
            liveStatus = { importer.alertText == nil ? importer.statusText : nil }
            liveAlert = { importer.alertText }
            observeLiveAlert = { importer.observeAlert($0) }
        }
        // The importer starts once the first screen is drawn: the screen's preview query and
        // first frame do not share the cores with its first saves.
        await BrowserLauncher.run(stack: stack, configuration: configuration, themeName: themeOption.theme,
                                  liveStatus: liveStatus, liveAlert: liveAlert, observeLiveAlert: observeLiveAlert,
                                  afterFirstFrame: { importer?.start() })
        importer?.stop()
        if let importer { try Self.report(importer) }
    }

    /// Throws the error that stopped `importer`, so it is printed once the screen is restored.
    private static func report(_ importer: DemoImporter) throws {
        if let error = importer.error { throw DemoImportStopped(message: error) }
    }

    /// Runs `body` holding an exclusive `flock` on `folder` (waiting for another holder); with
    /// no folder, just runs it.
    private func withFolderLock(_ folder: URL?, _ body: () throws -> Void) throws {
        guard let folder else { return try body() }
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        try body()
    }

    /// Seeds `rows` tickers, the progress on standard error; Ctrl-C (or SIGTERM) stops after
    /// the chunk under way, says what the saved chunks hold and ends the command (128 + the signal).
    private func seedShowingProgress(_ stack: PersistentStack, shown: String) throws {
        let reporter = ProgressReporter.standardError(command: "demo", unit: "tickers", quiet: quietOption.quiet)
        try InterruptWatch.during(onSignal: {}) { watch in
            var saved = (tickers: 0, chunks: 0)
            do {
                try DemoSeeder(coordinator: stack.writerCoordinator).seed(rows: rows) { done in
                    saved = (done, saved.chunks + 1)
                    reporter.update(done: done, total: rows, phase: "seeding")
                    if watch.caught != nil { throw DemoSeedInterrupted() }
                }
            } catch is DemoSeedInterrupted {
                reporter.finish()
                let chunks = "\(saved.chunks) saved chunk\(saved.chunks == 1 ? "" : "s")"
                FileHandle.standardError.write(Data("""
                    demo: interrupted; \(saved.tickers) of \(rows) tickers in \(chunks) kept, the rest not seeded \
                    (\(shown) is an interrupted seed now: remove it to seed anew)

                    """.utf8))
                throw ExitCode(watch.exitCode)
            }
            reporter.finish()
        }
    }

    private func measure(_ body: () throws -> Void) rethrows -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }
}

/// A signal stopped the demo's seed (after a whole chunk).
private struct DemoSeedInterrupted: Error {}
