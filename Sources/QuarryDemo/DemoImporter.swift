import Foundation
import Quarry
import Synchronization

/// The demo's live importer: a background thread that keeps inserting and updating tickers
/// through one `importerContext()`, saving a chunk every tick, at about `rate` rows a second.
///
/// Each save reaches the store through the writer coordinator, so the stack's smart merge brings
/// it to the main context and the browser's table updates live.
///
/// New symbols come from the store's ``DemoState`` counter, advanced in the same transaction as
/// the tickers, and `Ticker.symbol` is unique: two importers on one store (two processes) never
/// store one symbol twice; the loser of a race has its save refused whole and retries with the
/// fresh counter. A store that is busy (another process holds the write lock past the busy
/// timeout) pauses the importer, which retries with a growing delay and reports
/// "import paused: store busy" meanwhile; any other error stops it and is reported.
public final class DemoImporter: Sendable {
    /// What the importer reports as it runs (to ``onEvent``).
    public enum Event: Sendable, Equatable {
        /// A save reached the store (its number is the store-wide count of importer saves).
        case saved(DemoSave)
        /// A save found the store busy; the importer waits `retryIn` seconds and tries again.
        case paused(retryIn: Double)
        /// A save was refused because another writer stored its new tickers' symbols first; the
        /// importer tries again at once, reading the counter and its tickers afresh.
        case refusedForCollision
        /// The importer stopped: `error` is the message of the error that stopped it, if any.
        case stopped(error: String?)
    }

    private struct State {
        var running = false
        var rows = 0
        var totals = DemoImporterTotals()
        var startedAt: Date?
        var paused = false
        var lastError: String?
    }

    private let stack: PersistentStack
    /// Rows written per second (inserts and updates together).
    public let rate: Int
    /// Seconds between two saves.
    public let tick: Double
    /// New tickers inserted by each save (the rest of a save's rows are updates).
    public var insertsPerSave: Int { max(1, rowsPerSave / 10) }
    private var rowsPerSave: Int { max(1, Int((Double(rate) * tick).rounded())) }
    /// Called on the importer's thread for every ``Event``.
    private let onEvent: @Sendable (Event) -> Void
    private let state = Mutex(State())
    /// Called by ``updateState(_:)`` when ``alertText`` changed (see ``observeAlert(_:)``).
    private let alertObservers = Mutex<[@Sendable () -> Void]>([])
    private let stopped = DispatchSemaphore(value: 0)
    /// Signalled by ``stop()`` to end a pacing or back-off wait early.
    private let wake = DispatchSemaphore(value: 0)

    /// The first wait after a busy store, doubled after each further busy attempt up to
    /// ``maximumBackoff``.
    static let initialBackoff = 0.1
    /// The longest wait between two attempts on a busy store.
    static let maximumBackoff = 2.0
    /// What `quarry demo --import-only` prints for ``Event/refusedForCollision``.
    public static let collisionLine = "save refused: another writer stored its symbols first; retrying with fresh reads"

    /// Refused saves in a row (symbol collisions) after which the importer gives up.
    static let maximumCollisions = 1_000

    /// Creates an importer writing about `rate` rows a second into `stack`.
    public init(stack: PersistentStack, rate: Int, tick: Double = 0.25, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.stack = stack
        self.rate = max(1, rate)
        self.tick = tick
        self.onEvent = onEvent
    }

    /// Starts the importer thread.
    public func start() {
        let alreadyRunning = state.withLock { s -> Bool in
            defer { s.running = true; s.startedAt = Date() }
            return s.running
        }
        guard !alreadyRunning else { return }
        let thread = Thread { [self] in run() }
        thread.name = "quarry.demo-importer"
        thread.start()
    }

    /// Stops the importer and waits for its current save to finish.
    public func stop() {
        let wasRunning = state.withLock { s -> Bool in
            defer { s.running = false }
            return s.running
        }
        guard wasRunning else { return }
        wake.signal()
        stopped.wait()
        stopped.signal()  // a later `waitUntilStopped` returns at once
    }

    /// Blocks until the importer's thread ends (after ``stop()`` or an error that stopped it).
    public func waitUntilStopped() {
        stopped.wait()
        stopped.signal()
    }

    /// What the importer's saves stored so far.
    public var totals: DemoImporterTotals { state.withLock { $0.totals } }

    /// The message of the error that stopped the importer, if one did.
    public var error: String? { state.withLock { $0.lastError } }

    /// What the browser must show whatever else it shows: "import paused: store busy" while a
    /// busy store is retried, "import stopped: <error>" once an error stopped the importer;
    /// `nil` while it runs normally.
    public var alertText: String? { state.withLock { Self.alert(of: $0) } }

    /// Calls `onChange` whenever ``alertText`` changes: the importer paused on a busy store,
    /// resumed, or stopped with an error. It is called on the importer's thread, after the
    /// change, so a browser showing the alert posts a redraw to its own queue from there (the
    /// screen must change without waiting for a key).
    public func observeAlert(_ onChange: @escaping @Sendable () -> Void) {
        alertObservers.withLock { $0.append(onChange) }
    }

    private static func alert(of s: State) -> String? {
        if let error = s.lastError { return "import stopped: \(error)" }
        return s.paused ? "import paused: store busy" : nil
    }

    /// Changes the state, then tells the alert observers when ``alertText`` changed (outside
    /// the lock, so an observer may read the importer).
    private func updateState(_ change: (inout State) -> Void) {
        let changed = state.withLock { s in
            let before = Self.alert(of: s)
            change(&s)
            return Self.alert(of: s) != before
        }
        guard changed else { return }
        for observer in alertObservers.withLock({ $0 }) { observer() }
    }

    /// "import 200 rows/s" for the status line, "import paused: store busy" while a busy store
    /// is retried, or "import stopped: <error>".
    public var statusText: String {
        state.withLock { s in
            if let error = s.lastError { return "import stopped: \(error)" }
            if s.paused { return "import paused: store busy" }
            guard let start = s.startedAt else { return "" }
            let seconds = max(0.001, Date().timeIntervalSince(start))
            return "import \(Int((Double(s.rows) / seconds).rounded())) rows/s"
        }
    }

    private func run() {
        var failure: String?
        defer {
            updateState { $0.lastError = failure; $0.running = false }
            stopped.signal()
            onEvent(.stopped(error: failure))
        }
        do {
            try importLoop()
        } catch {
            failure = "\(error)"
        }
    }

    private func importLoop() throws {
        let context = stack.importerContext()
        // Two importers minting one symbol: refuse the save and retry with a fresh counter,
        // rather than merging the new ticker into the other importer's (the importer context's
        // object-trump policy would).
        context.performAndWait { context.uniquenessMergePolicy = .error }
        var writer = try context.performAndWait { try DemoSaveWriter(context: context) }
        var generator = SplitMix64(seed: UInt64(Date().timeIntervalSince1970 * 1000))
        var backoff = Self.initialBackoff
        var collisions = 0
        while state.withLock({ $0.running }) {
            let began = Date()
            do {
                let save = try context.performAndWait {
                    try writer.save(updates: rowsPerSave - insertsPerSave, inserts: insertsPerSave, generator: &generator)
                }
                backoff = Self.initialBackoff
                collisions = 0
                updateState {
                    $0.rows += save.inserted + save.updated
                    $0.totals.add(save)
                    $0.paused = false
                }
                onEvent(.saved(save))
                let rest = tick - Date().timeIntervalSince(began)
                if rest > 0 { _ = wake.wait(timeout: .now() + rest) }  // pacing; stop() ends it early
            } catch StoreError.locked {
                context.performAndWait { context.reset() }
                updateState { $0.paused = true }
                onEvent(.paused(retryIn: backoff))
                _ = wake.wait(timeout: .now() + backoff)  // back-off; stop() ends it early
                backoff = min(Self.maximumBackoff, backoff * 2)
            } catch StoreError.uniquenessViolation(let entity, let keys) {
                // Another importer stored these symbols first: retry with the fresh counter.
                context.performAndWait { context.reset() }
                collisions += 1
                state.withLock { $0.totals.refusedForCollisions += 1 }
                if collisions >= Self.maximumCollisions {
                    throw StoreError.uniquenessViolation(entity: entity, keys: keys)
                }
                onEvent(.refusedForCollision)
            }
        }
    }
}
