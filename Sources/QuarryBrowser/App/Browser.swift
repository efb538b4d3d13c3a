import Foundation
import Quarry
import QuarryTUI

/// The terminal browser's state and behaviour: one ``handle(_:)`` turns events into state changes,
/// ``prepareFrame(size:)`` lays the state out for the screen, and ``render(size:)`` draws it
/// into a cell buffer, changing nothing.
///
/// It owns a ``ResultsTable`` over the stack's main context, so the live merge reaches it as
/// fetched-results diffs. It never touches the terminal: ``BrowserApp`` feeds it events from a
/// ``TerminalBackend`` and presents what it renders. Main actor only.
@MainActor
public final class Browser {
    /// The stack browsed.
    public let stack: PersistentStack
    /// The configuration it was opened with.
    public let configuration: BrowserConfiguration
    /// The table.
    let table: ResultsTable
    /// The first key of a two-key command typed so far (`z`).
    var pendingPrefix: Character?
    /// The count being typed, the help hint said, the back stack.
    var motions = MotionState()
    /// The entity picker's typed text and each entity's row count (made when it opens).
    var entityPicker = EntityPickerState()
    /// The list pages (the history) an object was shown from: Esc on the table returns to them.
    var pagesReturn: [ListPage]?
    /// The main context's changes, followed while a `:since` view is kept.
    var sinceObservation: ObservationToken?
    /// The last `:since` view: the table marks the cells it names as changed until `:since off`.
    var sinceMarks: SinceView?
    /// The views to go back to (with the detail pages that were open) when relationship
    /// tables were opened from detail pages, innermost last: Esc on the table pops one.
    var scopeReturns: [(view: EntityView, overlay: Overlay?)] = []
    /// Each entity's view as it was left (`Tab` to another entity and back restores it).
    var entityViews: [String: EntityView] = [:]
    /// The lines typed into the filter, search and command prompts, oldest first, shared by the
    /// three and kept between runs (``PromptHistory``).
    let promptHistory: PromptHistory
    /// Puts text on the system clipboard (the app sets it to its terminal's OSC 52 output).
    public var copyToClipboard: (@MainActor (String) -> Void)?
    /// The theme names `:theme` completes: `default` and every theme file in the
    /// configuration's ``BrowserConfiguration/themeSearchDirectories``, read at each call.
    public var themeNames: [String] { ThemeLoader.themeNames(in: configuration.themeSearchDirectories) }
    /// The colours the terminal shows (set by the app when it starts): themes are adapted to it.
    public var colorCapability: ColorCapability = .indexed256
    /// The theme in use (the configuration's, adapted to the terminal's colours once it started).
    public internal(set) var theme: Theme
    /// What is open over the table.
    var overlay: Overlay?
    /// The summary line's live aggregates, while it is shown (`%`, `:summary`).
    var summary: TableSummary?
    /// A message for the status line, and whether it is an error; cleared by the next key.
    var message: (text: String, isError: Bool)?
    /// The column cursor and the column scroll.
    var columnView = ColumnView()
    /// The last search text, for `n` and `N`.
    var lastSearch: String?
    /// The column the last search looked in, when not the sort key (`nil`: the sort key).
    var lastSearchColumn: ColumnSpec?
    /// Set when the user asked to quit; the app loop then restores the terminal and exits.
    public internal(set) var wantsQuit = false
    /// The signal that made the browser quit (SIGINT, SIGTERM, SIGHUP), if one did: the process
    /// exits with 128 + its number, as shells expect.
    public internal(set) var quitSignal: Int32?
    /// The queries in flight and the keys waiting for them.
    var fetches = FetchState()
    /// The export running, if any.
    var exports = ExportState()
    /// The browser's saved edits, adds and deletes, for `u` and `Ctrl-R`.
    var edits = EditHistory()
    /// The live merge's pause, the app's frame and status hooks, other processes' commits.
    var live = LiveState()
    /// The terminal's size and the layout for it (see ``Browser+Layout``).
    var screen = ScreenState()
    /// What tests change to make timing deterministic.
    @_spi(Testing) public var testHooks = TestHooks() {
        didSet { table.flashDuration = testHooks.highlightDuration }
    }

    /// Whether the live merge is paused.
    public internal(set) var isPaused: Bool {
        get { live.isPaused }
        set { live.isPaused = newValue }
    }
    /// Called when something changed that needs a new frame (live merges, highlight expiry).
    public var onNeedsDisplay: (@MainActor () -> Void)? {
        get { live.onNeedsDisplay }
        set { live.onNeedsDisplay = newValue }
    }
    /// Extra text for the right of the status line (the importer's rate), asked at each frame.
    public var liveStatus: (@MainActor () -> String?)? {
        get { live.status }
        set { live.status = newValue }
    }
    /// Text the status line must always show, asked at each frame: the importer paused on a busy
    /// store, or stopped by an error. Shown like an error message (whole, before anything else)
    /// while no other message is up. Whoever changes it calls ``liveStateDidChange()``.
    public var liveAlert: (@MainActor () -> String?)? {
        get { live.alert }
        set { live.alert = newValue }
    }

    /// Opens the browser on `stack` with `configuration`.
    /// - Throws: when the entity, sort, section key or filter is invalid.
    public init(stack: PersistentStack, configuration: BrowserConfiguration) throws {
        self.stack = stack
        self.configuration = configuration
        self.theme = configuration.theme
        self.promptHistory = PromptHistory(file: configuration.historyFile)
        // The rows show unfiltered first; the filter's query then runs off the main queue like
        // any other, so a slow `--where` cannot keep the browser from starting (or quitting).
        let query = TableQuery(entityName: configuration.entityName, sort: configuration.sort,
                               sectionKey: configuration.sectionKey, filter: nil)
        // The first screen comes from a query that reads only its rows; the full index is
        // built (or read from the cache) meanwhile, and keys that need it wait for it.
        let cacheName = configuration.usesIndexCache ? IndexCacheName.make(store: stack.writerCoordinator.store.url, query: query) : nil
        let completion = IndexCompletion()
        if configuration.firstScreenRows > 0 {
            self.table = try ResultsTable(context: stack.mainContext, query: query, previewRows: configuration.firstScreenRows,
                                          cacheName: cacheName, batchSize: configuration.batchSize,
                                          cancellation: configuration.fullIndexCancellation ?? QueryCancellation(),
                                          cellFormats: configuration.cellFormats) { error in
                completion.run(error)
            }
        } else {
            self.table = try ResultsTable(context: stack.mainContext, query: query, cacheName: cacheName, batchSize: configuration.batchSize,
                                          cellFormats: configuration.cellFormats)
        }
        table.onChange = { [weak self] in self?.needsDisplay() }
        table.onError = { [weak self] error in self?.message = ("\(error)", true) }
        if let filter = configuration.filter {
            var filtered = query
            filtered.filter = filter
            try startFetch(filtered, label: "filtering") { [weak self] error in
                switch error {
                case nil, QueryCancellationError.cancelled?: break
                case let error?: self?.message = ("--where: \(error)", true)
                }
            }
        }
        if let start = configuration.startMessage { message = (start, true) }
        completion.attach(self)
        observeRemoteChanges()
    }


    /// Whether a form with unsaved edits is open.
    public var hasPendingEdits: Bool {
        if case .form(let session) = overlay { return session.hasChanges }
        return false
    }

    /// The columns not hidden.
    var shownColumns: [ColumnSpec] { table.columns.filter { !$0.isHidden } }

    /// The uptime at which the next row highlight ends, if any (the app schedules a frame then).
    public func nextHighlightExpiry() -> Double? {
        let now = ResultsTable.uptime()
        let expiries = [table.pruneFlashes(now: now), frequencyView?.pruneFlashes(now: now)]
        return expiries.compactMap { $0 }.min()
    }

    /// How many objects the table shows.
    public var rowCount: Int { table.rowCount }

    /// The object under the table's cursor, if the cursor is on a row (benchmarks check where
    /// a hop landed).
    @_spi(Benchmarks) public var cursorObjectID: ObjectID? { table.cursorID }

    /// The entity the table shows.
    @_spi(Benchmarks) public var entityName: String { table.entity.name }

    /// Pauses or resumes the live merge. Resuming refetches, so nothing merged meanwhile is missed.
    func togglePause() {
        isPaused.toggle()
        stack.mergesIncomingSavedObjects = !isPaused
        if isPaused {
            message = ("live merge paused (p resumes)", false)
        } else {
            refetch(label: "refetching", done: "live merge resumed", cancelled: "refetch cancelled; rows may be stale (f Enter refetches)",
                    failed: "refetch failed")
        }
    }

    /// Re-reads the table's rows from the store, as resuming the live merge does: what shows
    /// other programs' changes where the store is not live.
    func refresh() {
        refetch(label: "refreshing", done: "refreshed", cancelled: "refresh cancelled; rows may be stale (R refreshes)",
                failed: "refresh failed")
    }

    /// Forgets the main context's objects and re-runs the table's query off the main queue, like
    /// any query the user started (Esc cancels it: the rows then stay as they were), saying
    /// `done`, `cancelled` or `failed: <error>` on the status line when it ends.
    private func refetch(label: String, done: String, cancelled: String, failed: String) {
        stack.mainContext.reset()
        do {
            try startFetch(table.query, label: label) { [weak self] error in
                switch error {
                case nil: self?.message = (done, false)
                case QueryCancellationError.cancelled?: self?.message = (cancelled, true)
                case let error?: self?.message = ("\(failed): \(error)", true)
                }
            }
        } catch {
            message = ("\(failed): \(error)", true)
        }
    }

    /// Asks to quit, first confirming when an edit or add form is open.
    ///
    /// Answering no (`n`, Esc) puts the form back exactly as it was, typed values and caret
    /// included: the session object is kept, only the question is laid over it.
    func requestQuit(signal: Int32? = nil) {
        let open: EditSession?
        switch overlay {
        case .form(let session): open = session
        case .confirm(let question): open = question.form  // e.g. the discard question over a form
        default: open = nil
        }
        guard let session = open else {
            quit(signal: signal)
            return
        }
        let what = session.isNew ? "the new \(session.object.entity.name)" : "the unsaved edits"
        overlay = .confirm(Confirmation(
            title: "Quit?", lines: ["Quit and discard \(what)? (y/n)"],
            onYes: { [weak self] in self?.quit(signal: signal) },
            onNo: { [weak self] in self?.overlay = .form(session) }))
    }

    /// Quits, remembering the signal that asked (for the exit status).
    func quit(signal: Int32?) {
        cancelPendingFetch()
        quitSignal = signal
        wantsQuit = true
    }
}
