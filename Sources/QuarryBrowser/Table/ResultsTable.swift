import Quarry
import QuarryTUI

/// The browser's table model: a live ``FetchedResultsController`` flattened into display lines
/// (section headers and rows), a cursor that stays on its object while rows move, and the rows
/// the live merge just changed.
///
/// Only the visible window is ever faulted in, through the controller's batches, so a million
/// rows cost what the screen shows. Lives on the main actor, like the main context it reads.
///
/// Its concerns live in their own files: which line is what (``ResultsTable+Lines``), the
/// cursor (``ResultsTable+Cursor``), collapsing sections (``ResultsTable+Sections``), what the
/// visible lines show (``ResultsTable+Window``) and applying the controller's changes
/// (``ResultsTable+LiveChanges``).
@MainActor
final class ResultsTable {
    /// The main context the controller reads.
    let context: ObjectContext
    /// The entity browsed.
    private(set) var entity: EntityDescription
    /// The current query.
    private(set) var query: TableQuery
    /// The live controller.
    private(set) var controller: FetchedResultsController
    /// The controllers of the queries shown last before this one, kept live (each still follows
    /// the context's changes, without a delegate) so that going back to one — Backspace after a
    /// hop, Tab back to an entity — shows it at once instead of fetching it again; at most
    /// ``keptControllerLimit``, the least recent dropped first.
    private var keptControllers: [(query: TableQuery, controller: FetchedResultsController)] = []
    /// The cancellations of the full indexes still being read behind previews around an
    /// object, by controller: one the table drops before its index is in stops reading it.
    private var indexReads: [ObjectIdentifier: QueryCancellation] = [:]
    /// How many controllers are kept for going back (each holds its results' index: about 20 MB
    /// a million rows).
    static let keptControllerLimit = 2
    /// The columns, hidden ones included.
    var columns: [ColumnSpec]
    /// The cell formats the columns of every entity shown get (``BrowserConfiguration/cellFormats``).
    let cellFormats: [CellFormatKey: CellFormat]
    /// How many rows the controller faults at once (``BrowserConfiguration/batchSize``).
    let batchSize: Int
    /// Called after the results changed (live merge, local save) so the UI can schedule a frame.
    var onChange: (() -> Void)?
    /// Called when a live change could not be applied (the controller's store query failed).
    var onError: ((FetchedResultsError) -> Void)?
    private var observer: ControllerObserver?

    // The state below is grouped by the file whose methods keep it; other code reads it only.

    // MARK: Lines and sections (ResultsTable+Lines, ResultsTable+Sections)

    /// Where each display line comes from: section headers and rows.
    var lines = DisplayLines()
    /// The names of the sections shown as their header alone (`za`, `zM`): their rows are
    /// never faulted in, their counts stay live. Kept by name, so a section keeps its state
    /// while sections before it come and go.
    var collapsedSections: Set<String> = []
    /// Whether each section header is followed by its summary line (`%`); set with
    /// ``showSectionSummaries(_:)`` (which lays the lines out again).
    var showsSectionSummaries = false
    /// The cells of a section's summary line, by section name, for the columns shown.
    var sectionSummary: (@MainActor (String, [ColumnSpec]) -> [String])?

    // MARK: Cursor (ResultsTable+Cursor)

    /// The display line the cursor is on (always a row line when there are rows).
    var cursor = 0
    /// The first display line shown.
    var top = 0
    /// How many lines the table area shows (set by the browser's layout, before navigation).
    var pageHeight = 20
    /// The object under the cursor, followed across changes.
    var cursorID: ObjectID?
    /// Follow mode (`t`): every change puts the view and the cursor on the first row.
    var followsTop = false
    /// The selected objects (`v`, `V`), marked in the gutter; deletes forget theirs.
    var selection: Set<ObjectID> = []
    /// The collapsed section whose header the cursor is on, followed across changes.
    var cursorSectionName: String?

    // MARK: Live changes (ResultsTable+LiveChanges)

    /// How long a changed row stays highlighted, in seconds.
    var flashDuration = 1.0
    /// Rows changed by the last updates, with the uptime (seconds) their highlight ends.
    var flashes: [ObjectID: Double] = [:]
    /// Rows the controller reported changed in the batch it is delivering.
    var pendingFlash: [ObjectID] = []
    /// The most rows a batch of changes highlights wherever they are; a larger batch (an
    /// import's save) highlights only the rows on screen after it.
    var flashEveryRowLimit = 256
    /// How many change batches the controller delivered (for the status line and tests).
    var changeBatches = 0
    /// The object being edited in a form, with its cells as they were when the edit began: its
    /// row keeps them (marked pending) while every other row follows the live merge.
    var frozenRow: (id: ObjectID, cells: [ColumnSpec.Source: String])?
    /// Called when the live merge changed the frozen object (another writer saved it).
    var onFrozenRowChange: (() -> Void)?

    // MARK: Window (ResultsTable+Window)

    /// The objects of the window laid out last (``hold(_:)``).
    var visibleObjects: [ManagedObject] = []

    /// A table for `query` on `context` (a main-queue context) with its controller made and
    /// attached, not yet fetched.
    private init(opening query: TableQuery, on context: ObjectContext, cacheName: String?, batchSize: Int,
                 cellFormats: [CellFormatKey: CellFormat]) throws {
        self.context = context
        self.batchSize = max(1, batchSize)
        let entity = try context.model.requireEntity(query.entityName)
        self.entity = entity
        self.query = query
        self.cellFormats = cellFormats
        self.columns = ColumnSpec.columns(for: entity, model: context.model, leading: query.userSort.map(\.keyPath), formats: cellFormats)
        self.controller = try Self.makeController(context: context, query: query, batchSize: self.batchSize, cacheName: cacheName)
        attach()
    }

    /// Opens the table for `query` on `context` (a main-queue context), with its whole index
    /// (read from the controller's cache `cacheName` when the store is unchanged since it was written).
    /// - Throws: ``QueryError`` for a bad filter or sort key, ``ModelError`` for an unknown entity.
    convenience init(context: ObjectContext, query: TableQuery, cacheName: String? = nil,
                     batchSize: Int = BrowserConfiguration.defaultBatchSize,
                     cellFormats: [CellFormatKey: CellFormat] = [:]) throws {
        try self.init(opening: query, on: context, cacheName: cacheName, batchSize: batchSize, cellFormats: cellFormats)
        try controller.performFetch()
        recomputeLines()
        moveCursor(to: 0)
    }

    /// Opens the table for `query` on `context` showing its first `previewRows` rows at once
    /// (a query that reads only them), while the full index is built off the main queue, read
    /// from the controller's cache `cacheName` when the store is unchanged since it was written.
    /// Until then ``isComplete`` is `false`; `onComplete` runs on the main queue once the full
    /// results are shown (the cursor stays on its object), with the error if they could not be
    /// built (the preview stays then).
    /// - Throws: ``QueryError`` for a bad filter or sort key, ``ModelError`` for an unknown
    ///   entity, or the preview query's error.
    convenience init(context: ObjectContext, query: TableQuery, previewRows: Int, cacheName: String?,
                     batchSize: Int = BrowserConfiguration.defaultBatchSize,
                     cancellation: QueryCancellation = QueryCancellation(), cellFormats: [CellFormatKey: CellFormat] = [:],
                     onComplete: @escaping @MainActor (Error?) -> Void) throws {
        try self.init(opening: query, on: context, cacheName: cacheName, batchSize: batchSize, cellFormats: cellFormats)
        let controller = controller
        let outcome = PreviewOutcome()
        controller.performFetch(cancellation: cancellation, previewCount: previewRows) { [weak self] error in
            MainActor.assumeIsolated {
                guard let self else { return }
                // A failed preview (or a fetch done on this queue) completes at once, before
                // `init` returns: its error is thrown below.
                guard outcome.previewInstalled else {
                    outcome.immediateError = error
                    return
                }
                if self.controller === controller {
                    self.recomputeLines(keepingCursor: true)
                    self.onChange?()
                }
                onComplete(error)
            }
        }
        if let error = outcome.immediateError { throw error }
        outcome.previewInstalled = true
        recomputeLines()
        moveCursor(to: 0)
    }

    /// Whether the table shows all of its query's rows, or only the first ones while the full
    /// index is built (the status line says "≥").
    var isComplete: Bool { controller.isComplete }

    /// How many rows come before the first one a preview around an object holds (0 otherwise).
    var previewOffset: Int { controller.isComplete ? 0 : controller.previewOffset }

    /// All of the query's rows, when a preview around an object counted them.
    var previewTotal: Int? { controller.isComplete ? nil : controller.previewTotal }

    private static func makeController(context: ObjectContext, query: TableQuery, batchSize: Int,
                                       cacheName: String? = nil) throws -> FetchedResultsController {
        // No sort key (nothing of the entity sorts): the controller keeps object-ID order.
        var request = FetchRequest(entityName: query.entityName, predicate: try query.predicate(), sortDescriptors: query.effectiveSort)
        request.fetchBatchSize = batchSize
        // Every to-one relationship is a column: their destinations are read for a batch at once.
        if let entity = context.model.entity(named: query.entityName) {
            request.relationshipKeyPathsForPrefetching = entity.relationships.filter { !$0.isToMany }.map(\.name)
        }
        return try FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: query.sectionKey, cacheName: cacheName)
    }

    private func attach() {
        let observer = ControllerObserver(table: self)
        self.observer = observer
        controller.delegate = observer
    }

    /// Replaces the query (new filter, sort, entity), keeping the cursor on the same object when
    /// it is still in the results. On error the old query stays in place. Runs the query on the
    /// calling queue: for the first fetch and refetches; a query the user typed goes through
    /// ``beginReload(_:cancellation:completion:)``.
    func reload(_ newQuery: TableQuery) throws {
        let newController = try Self.makeController(context: context, query: newQuery, batchSize: batchSize)
        try newController.performFetch()
        try install(newController, for: newQuery)
    }

    /// Starts replacing the query with its store query off the main queue, cancellable through
    /// `cancellation`; the table keeps showing the old results until the new ones are installed.
    ///
    /// - Throws: at once, for a query that does not compile (a bad filter or sort key); the
    ///   query's own failure, or its cancellation, is passed to `completion` instead, and the old
    ///   query then stays in place.
    func beginReload(_ newQuery: TableQuery, cancellation: QueryCancellation, around anchor: ObjectID? = nil,
                     onFullIndex: @escaping @MainActor (Error?) -> Void = { _ in },
                     completion: @escaping @MainActor @Sendable (Error?) -> Void) throws {
        if let kept = keptControllers.firstIndex(where: { $0.query == newQuery }) {
            let controller = keptControllers.remove(at: kept).controller
            // Shown before and kept live: back at once, no fetch; but a preview around another
            // object, its index still to come, gives way to a new one around this one.
            if controller.isComplete || anchor.map({ controller.indexPath(forObjectID: $0) != nil }) ?? true {
                try install(controller, for: newQuery)
                completion(nil)
                return
            }
            stopReadingIndex(of: [controller])
        }
        let newController = try Self.makeController(context: context, query: newQuery, batchSize: batchSize)
        let outcome = PreviewOutcome()
        let fetched: @Sendable (Error?) -> Void = { [weak self] error in
            MainActor.assumeIsolated {
                guard let self else { return }
                if outcome.previewInstalled {
                    // The full index behind a preview shown already (or its reading stopped).
                    self.indexReads[ObjectIdentifier(newController)] = nil
                    if self.controller === newController {
                        self.recomputeLines(keepingCursor: true)
                        self.onChange?()
                        onFullIndex(error)
                    }
                    return
                }
                if let error {
                    completion(error)
                    return
                }
                do {
                    try self.install(newController, for: newQuery)
                    completion(nil)
                } catch {
                    completion(error)
                }
            }
        }
        guard let anchor else {
            newController.performFetch(cancellation: cancellation, completion: fetched)
            return
        }
        // The rows around the object, in place, while the rest is read.
        newController.performFetch(cancellation: cancellation, previewAround: anchor, rows: pageHeight + 1, completion: fetched)
        guard !newController.isComplete else { return }
        outcome.previewInstalled = true
        indexReads[ObjectIdentifier(newController)] = cancellation
        try install(newController, for: newQuery)
        completion(nil)
    }

    /// Stops reading the full indexes of `controllers`, dropped before theirs came in.
    private func stopReadingIndex(of controllers: [FetchedResultsController]) {
        for controller in controllers where !controller.isComplete {
            indexReads.removeValue(forKey: ObjectIdentifier(controller))?.cancel()
        }
    }

    /// Shows `newController`'s results (fetched for `newQuery`), keeping the cursor's object.
    private func install(_ newController: FetchedResultsController, for newQuery: TableQuery) throws {
        if newQuery.entityName != query.entityName {
            entity = try context.model.requireEntity(newQuery.entityName)
            columns = ColumnSpec.columns(for: entity, model: context.model, leading: newQuery.userSort.map(\.keyPath), formats: cellFormats)
            cursorID = nil
        }
        if newQuery.entityName != query.entityName || newQuery.sectionKey != query.sectionKey { collapsedSections = [] }
        controller.delegate = nil
        if controller !== newController && query != newQuery {
            // A controller kept for either query is replaced.
            let replaced = { [query] (kept: (query: TableQuery, controller: FetchedResultsController)) in kept.query == query || kept.query == newQuery }
            stopReadingIndex(of: keptControllers.filter(replaced).map(\.controller))
            keptControllers.removeAll(where: replaced)
            keptControllers.append((query, controller))
            if keptControllers.count > Self.keptControllerLimit { stopReadingIndex(of: [keptControllers.removeFirst().controller]) }
        } else if controller !== newController {
            stopReadingIndex(of: [controller])
        }
        query = newQuery
        controller = newController
        attach()
        flashes = [:]
        if !recomputeLines(keepingCursor: true) {
            top = 0
            moveCursor(to: 0)
        }
        onChange?()
    }

    /// Fetches again (after the live merge was paused and resumed), keeping the cursor's object.
    /// The controllers kept for going back are dropped: they missed what the pause held back.
    func refetch() throws {
        stopReadingIndex(of: keptControllers.map(\.controller))
        keptControllers = []
        try reload(query)
    }
}

/// What a preview fetch's completion finds when it runs before the table's `init` returned (a
/// failed preview completes at once, on the calling queue). Main queue only.
private final class PreviewOutcome: @unchecked Sendable {
    var previewInstalled = false
    var immediateError: Error?
}
