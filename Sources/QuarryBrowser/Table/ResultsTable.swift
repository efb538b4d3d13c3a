import Dispatch
import Quarry
import QuarryTUI

/// The browser's table model: a live ``FetchedResultsController`` flattened into display lines
/// (section headers and rows), a cursor that stays on its object while rows move, and the rows
/// the live merge just changed.
///
/// Only the visible window is ever faulted in, through the controller's batches, so a million
/// rows cost what the screen shows. Lives on the main actor, like the main context it reads.
@MainActor
final class ResultsTable {
    /// One display line.
    enum Line: Equatable {
        /// The header of section `index`.
        case section(Int)
        /// A row.
        case row(RowPath)
    }

    /// The main context the controller reads.
    let context: ObjectContext
    /// The entity browsed.
    private(set) var entity: EntityDescription
    /// The current query.
    private(set) var query: TableQuery
    /// The live controller.
    private(set) var controller: FetchedResultsController
    /// The columns, hidden ones included.
    var columns: [ColumnSpec]
    /// The cell formats the columns of every entity shown get (``BrowserConfiguration/cellFormats``).
    let cellFormats: [CellFormatKey: CellFormat]
    /// Called after the results changed (live merge, local save) so the UI can schedule a frame.
    var onChange: (() -> Void)?
    /// Called when a live change could not be applied (the controller's store query failed).
    var onError: ((FetchedResultsError) -> Void)?
    /// How long a changed row stays highlighted, in seconds.
    var flashDuration = 1.0

    /// Display index of each section's header line (empty when the table is not sectioned).
    private(set) var sectionStarts: [Int] = []
    /// The names of the sections shown as their header alone (`za`, `zM`): their rows are
    /// never faulted in, their counts stay live. Kept by name, so a section keeps its state
    /// while sections before it come and go.
    private(set) var collapsedSections: Set<String> = []
    /// How many display lines there are.
    private(set) var lineCount = 0
    /// The display line the cursor is on (always a row line when there are rows).
    private(set) var cursor = 0
    /// The first display line shown.
    private(set) var top = 0
    /// How many lines the table area shows (set by the renderer before navigation).
    var pageHeight = 20
    /// The object under the cursor, followed across changes.
    private(set) var cursorID: ObjectID?
    /// The collapsed section whose header the cursor is on, followed across changes.
    private var cursorSectionName: String?
    /// Rows changed by the last updates, with the uptime (seconds) their highlight ends.
    private(set) var flashes: [ObjectID: Double] = [:]
    /// The object being edited in a form, with its cells as they were when the edit began: its
    /// row keeps them (marked pending) while every other row follows the live merge.
    private(set) var frozenRow: (id: ObjectID, cells: [ColumnSpec.Source: String])?
    /// Called when the live merge changed the frozen object (another writer saved it).
    var onFrozenRowChange: (() -> Void)?
    /// How many change batches the controller delivered (for the status line and tests).
    private(set) var changeBatches = 0
    private var observer: ControllerObserver?
    /// The objects of the visible window, held so they stay registered in the main context: the
    /// smart merge refreshes them (and only them), and redrawing does not fault them again.
    private var visibleObjects: [ManagedObject] = []
    /// How many rows the controller faults at once (``BrowserConfiguration/batchSize``).
    let batchSize: Int

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

    /// Recomputes the lines after the results were replaced; with `keepingCursor`, the cursor
    /// stays on its object (at the same screen row) when it is still there. Returns whether it did.
    @discardableResult
    private func recomputeLines(keepingCursor: Bool) -> Bool {
        let keep = cursorID
        let screenRow = cursor - top
        recomputeLines()
        guard keepingCursor, let keep, let index = displayIndex(of: keep) else { return false }
        cursor = index
        top = cursor - screenRow
        clampTop()
        cursorID = keep
        return true
    }

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
    func beginReload(_ newQuery: TableQuery, cancellation: QueryCancellation,
                     completion: @escaping @MainActor @Sendable (Error?) -> Void) throws {
        let newController = try Self.makeController(context: context, query: newQuery, batchSize: batchSize)
        newController.performFetch(cancellation: cancellation) { [weak self] error in
            MainActor.assumeIsolated {
                guard let self else { return }
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
    func refetch() throws { try reload(query) }

    // MARK: Lines

    /// The sections of the results (one unnamed section when not sectioned).
    var sections: [SectionInfo] { controller.sections }

    /// How many objects the table shows.
    var rowCount: Int { controller.count }

    private var isSectioned: Bool { query.sectionKey != nil }

    func recomputeLines() {
        let sections = controller.sections
        if isSectioned {
            sectionStarts = []
            var index = 0
            for section in sections {
                sectionStarts.append(index)
                index += 1 + (collapsedSections.contains(section.name) ? 0 : section.numberOfObjects)
            }
            lineCount = index
        } else {
            sectionStarts = []
            lineCount = controller.count
        }
    }

    /// What display line `index` is.
    func line(at index: Int) -> Line {
        guard isSectioned else { return .row(RowPath(section: 0, row: index)) }
        var low = 0, high = sectionStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sectionStarts[mid] <= index { low = mid } else { high = mid - 1 }
        }
        let offset = index - sectionStarts[low]
        return offset == 0 ? .section(low) : .row(RowPath(section: low, row: offset - 1))
    }

    /// The display line of `path` (its section's header when the section is collapsed).
    func displayIndex(of path: RowPath) -> Int {
        guard isSectioned else { return path.row }
        return isCollapsed(section: path.section) ? sectionStarts[path.section] : sectionStarts[path.section] + 1 + path.row
    }

    /// Whether section `index` shows its header alone.
    func isCollapsed(section index: Int) -> Bool {
        isSectioned && !collapsedSections.isEmpty && collapsedSections.contains(controller.sections[index].name)
    }

    /// Whether display line `index` is one the cursor may rest on: a row, or the header of a
    /// collapsed section (its only line).
    private func isCursorStop(_ index: Int) -> Bool {
        switch line(at: index) {
        case .row: return true
        case .section(let s): return isCollapsed(section: s)
        }
    }

    /// The section the cursor is in (on one of its rows, or on its collapsed header).
    var cursorSection: Int? {
        guard isSectioned, lineCount > 0 else { return nil }
        switch line(at: cursor) {
        case .row(let path): return path.section
        case .section(let s): return s
        }
    }

    /// Collapses (`true`) or expands section `index`, the cursor moving to its header or to its
    /// first row; other sections' rows keep their place on screen.
    func setCollapsed(_ collapse: Bool, section index: Int) {
        guard isSectioned, controller.sections.indices.contains(index) else { return }
        let name = controller.sections[index].name
        guard collapse != collapsedSections.contains(name) else { return }
        if collapse { collapsedSections.insert(name) } else { collapsedSections.remove(name) }
        recomputeLines()
        moveCursor(to: collapse ? sectionStarts[index] : sectionStarts[index] + 1)
    }

    /// Collapses exactly the sections named in `names` (a view restored); the cursor stays on
    /// its object when its section stays open.
    func restoreCollapsedSections(_ names: Set<String>) {
        guard isSectioned, names != collapsedSections else { return }
        collapsedSections = names
        recomputeLines(keepingCursor: true)
        if cursorPath == nil { moveCursor(to: cursor) }
    }

    /// Puts the cursor on `path`'s row, expanding its section first when it is collapsed.
    func reveal(_ path: RowPath) {
        if isCollapsed(section: path.section) { setCollapsed(false, section: path.section) }
        moveCursor(to: displayIndex(of: path))
    }

    /// Collapses (`true`) or expands every section; the cursor stays in its section.
    func setAllCollapsed(_ collapse: Bool) {
        guard isSectioned else { return }
        let section = cursorSection
        collapsedSections = collapse ? Set(controller.sections.map(\.name)) : []
        recomputeLines()
        guard let section, sectionStarts.indices.contains(section) else { return moveCursor(to: 0) }
        moveCursor(to: collapse ? sectionStarts[section] : sectionStarts[section] + 1)
        if collapse { top = 0; scrollToCursor() }
    }

    /// The display line of the object `id`, if it is in the results.
    func displayIndex(of id: ObjectID) -> Int? {
        controller.indexPath(forObjectID: id).map(displayIndex(of:))
    }

    /// The row path under the cursor, if there are rows.
    var cursorPath: RowPath? {
        guard lineCount > 0, case .row(let path) = line(at: cursor) else { return nil }
        return path
    }

    /// The 1-based position of the cursor's row among all rows (for `row r/N`).
    var cursorRowNumber: Int {
        guard let path = cursorPath else { return 0 }
        let before = sections.prefix(path.section).reduce(0) { $0 + $1.numberOfObjects }
        return before + path.row + 1
    }

    // MARK: Cursor

    /// Puts the cursor on display line `index` (clamped; a section header moves it to the row below,
    /// or above at the end) and scrolls so it is visible.
    func moveCursor(to index: Int, preferDown: Bool = true) {
        guard lineCount > 0 else {
            cursor = 0
            top = 0
            cursorID = nil
            return
        }
        var target = min(max(0, index), lineCount - 1)
        if !isCursorStop(target) {
            if preferDown, target + 1 < lineCount, isCursorStop(target + 1) {
                target += 1
            } else if target > 0 {
                target -= 1
            } else if target + 1 < lineCount {
                target += 1
            }
        }
        cursor = target
        cursorID = cursorPath.map(controller.objectID(at:))
        cursorSectionName = cursorPath == nil ? cursorSection.map { controller.sections[$0].name } : nil
        scrollToCursor()
    }

    /// Moves the cursor `delta` lines, skipping section headers.
    func moveCursor(by delta: Int) {
        moveCursor(to: cursor + delta, preferDown: delta >= 0)
    }

    /// The first row.
    func moveToTop() { top = 0; moveCursor(to: 0) }

    /// The last row.
    func moveToBottom() { moveCursor(to: lineCount - 1, preferDown: false) }

    /// One page down (`pages` > 0) or up, keeping the cursor's screen row.
    func page(by pages: Int) {
        let step = max(1, pageHeight - 1) * pages
        let screenRow = cursor - top
        top += step
        clampTop()
        let target = top + screenRow
        // Where the view cannot scroll further, the cursor still moves a page (to the end).
        moveCursor(to: (target == cursor) ? cursor + step : target, preferDown: pages > 0)
    }

    /// The first row of the next (`+1`) or previous (`-1`) section.
    func jumpSection(by delta: Int) {
        guard isSectioned, let section0 = cursorSection else { return }
        var section = section0
        if delta < 0, let path = cursorPath, path.row > 0 {
            // `[` first goes to the top of the current section.
        } else {
            section += delta
        }
        guard sectionStarts.indices.contains(section) else { return }
        moveCursor(to: isCollapsed(section: section) ? sectionStarts[section] : sectionStarts[section] + 1)
        top = sectionStarts[section]
        clampTop()
    }

    private func scrollToCursor() {
        if cursor < top { top = cursor }
        if cursor >= top + pageHeight { top = cursor - pageHeight + 1 }
        if isSectioned, top == cursor, cursor > 0, case .section = line(at: cursor - 1) { top = cursor - 1 }
        clampTop()
    }

    private func clampTop() {
        top = max(0, min(top, lineCount - pageHeight))
        top = max(0, top)
    }

    // MARK: Visible window

    /// The lines the table shows now, with text and highlights; faults in only these rows.
    func visibleLines(columns shown: [ColumnSpec], now: Double) -> [TableLine] {
        guard lineCount > 0 else {
            visibleObjects = []
            return []
        }
        var result: [TableLine] = []
        var objects: [ManagedObject] = []
        defer { visibleObjects = objects }
        let sections = controller.sections
        for index in top..<min(lineCount, top + pageHeight) {
            switch line(at: index) {
            case .section(let s):
                result.append(.section(title: sections[s].name.isEmpty ? "(none)" : sections[s].name, count: sections[s].numberOfObjects,
                                       highlight: index == cursor ? .cursor : [], isCollapsed: isCollapsed(section: s)))
            case .row(let path):
                let object = controller.object(at: path)
                objects.append(object)
                var highlight: RowHighlight = []
                if index == cursor { highlight.insert(.cursor) }
                if path.row % 2 == 1 { highlight.insert(.alternate) }
                if let frozen = frozenRow, frozen.id == object.objectID {
                    highlight.insert(.pending)
                    result.append(.row(cells: shown.map { frozen.cells[$0.source] ?? $0.text(for: object) }, highlight: highlight))
                    continue
                }
                if let until = flashes[object.objectID], until > now { highlight.insert(.flash) }
                result.append(.row(cells: shown.map { $0.text(for: object) }, highlight: highlight))
            }
        }
        return result
    }

    /// Keeps the row of `id` as it is now until ``unfreeze()`` (an edit form is open on it).
    func freeze(_ id: ObjectID) {
        guard frozenRow?.id != id else { return }
        let object = context.object(with: id)
        var cells: [ColumnSpec.Source: String] = [:]
        for column in columns { cells[column.source] = column.text(for: object) }
        frozenRow = (id, cells)
    }

    /// Lets the frozen row follow the live merge again.
    func unfreeze() {
        guard let frozen = frozenRow else { return }
        frozenRow = nil
        flashes[frozen.id] = nil
    }

    /// Drops expired highlights; returns the uptime at which the next one expires, if any.
    func pruneFlashes(now: Double) -> Double? {
        flashes = flashes.filter { $0.value > now }
        return flashes.values.min()
    }

    // MARK: Live changes

    fileprivate var pendingFlash: [ObjectID] = []

    fileprivate func controllerDidChange() {
        changeBatches += 1
        let screenRow = cursor - top
        let previous = cursor
        recomputeLines()
        let until = Self.uptime() + flashDuration
        for id in pendingFlash { flashes[id] = until }
        pendingFlash = []
        if let name = cursorSectionName, let index = sections.firstIndex(where: { $0.name == name }), isCollapsed(section: index) {
            cursor = sectionStarts[index]
            top = cursor - screenRow
            clampTop()
        } else if let id = cursorID, let index = displayIndex(of: id) {
            cursor = index
            top = cursor - screenRow
            clampTop()
            if cursor < top || cursor >= top + pageHeight { scrollToCursor() }
        } else {
            moveCursor(to: previous)
            top = cursor - screenRow
            clampTop()
        }
        onChange?()
    }

    fileprivate func controllerDidReset() {
        try? refetch()
        onChange?()
    }

    /// Seconds since boot, the clock for highlights.
    static func uptime() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}

/// Receives the controller's delegate calls (on the main queue) for a ``ResultsTable``.
private final class ControllerObserver: FetchedResultsControllerDelegate, @unchecked Sendable {
    // Confined to the main queue: the controller calls its delegate on its context's queue, and
    // the browser's controllers all run on the main context.
    nonisolated(unsafe) weak var table: ResultsTable?

    init(table: ResultsTable) { self.table = table }

    func controller(_ controller: FetchedResultsController, didChangeObject objectID: ObjectID, at indexPath: RowPath?,
                    for type: ResultsChangeType, newIndexPath: RowPath?) {
        guard type != .delete else { return }
        MainActor.assumeIsolated {
            guard let table else { return }
            if table.frozenRow?.id == objectID {
                if type == .update || type == .move { table.onFrozenRowChange?() }
                return
            }
            table.pendingFlash.append(objectID)
        }
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController) {
        MainActor.assumeIsolated { table?.controllerDidChange() }
    }

    func controllerDidResetContent(_ controller: FetchedResultsController) {
        MainActor.assumeIsolated { table?.controllerDidReset() }
    }

    func controller(_ controller: FetchedResultsController, didFailWith error: FetchedResultsError) {
        MainActor.assumeIsolated {
            table?.onError?(error)
            table?.onChange?()
        }
    }
}

/// What a preview fetch's completion finds when it runs before the table's `init` returned (a
/// failed preview completes at once, on the calling queue). Main queue only.
private final class PreviewOutcome: @unchecked Sendable {
    var previewInstalled = false
    var immediateError: Error?
}
