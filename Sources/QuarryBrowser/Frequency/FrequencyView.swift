import Foundation
import Quarry
import QuarryTUI

/// The frequency view (`F`, `:freq KEYPATH`): one row per distinct value of a key path over the
/// table's objects (its filter respected), with its count, its share of the total and a bar,
/// sorted by count.
///
/// Kept live by an ``AggregateResultsController`` (`count()` grouped by the key path): after
/// each change event the controller adjusts the groups the changed objects left or joined,
/// without running `GROUP BY` again, and tells which groups changed; their rows flash, the
/// cursor stays on its value, and ``lastUpdate`` says what the update cost. Main actor only,
/// like the main context the controller reads.
@MainActor
final class FrequencyView {
    /// The key path counted (`sector.name`).
    let keyPath: String
    /// The entity counted.
    let entityName: String
    /// The table's predicate when the view was opened (filter and scope).
    let predicate: ObjectPredicate?
    /// The live groups.
    private(set) var controller: AggregateResultsController
    /// The column sorted by (0 the value, 1 the count, 2 the percent, 3 the bar: the last three
    /// sort by count) and its direction.
    private(set) var sortColumn = 1
    private(set) var sortAscending = false

    /// The row under the cursor, the first row shown, and how many rows the area shows.
    var cursor = 0
    var top = 0
    var pageHeight = 20
    /// The column under the column cursor.
    var columnCursor = 0
    /// The group key of the row under the cursor, followed across changes.
    private var cursorKey: [Value]?

    /// The sum of the counts (the objects counted) and the largest count (the longest bar).
    private(set) var total: Int64 = 0
    private(set) var largest: Int64 = 0
    /// How many change events updated the rows.
    private(set) var updates = 0
    /// Seconds the first fetch took.
    private(set) var fetchSeconds = 0.0

    /// How long a changed row stays highlighted, in seconds.
    var flashDuration = 1.0
    /// Rows changed by the last updates (by group key), with the uptime their highlight ends.
    private(set) var flashes: [[Value]: Double] = [:]
    /// Rows the controller reported changed in the event it is delivering.
    private var pendingFlash: [[Value]] = []
    /// Called after the rows changed (to schedule a frame), and when a change failed.
    var onChange: (@MainActor () -> Void)?
    var onError: (@MainActor (FetchedResultsError) -> Void)?
    private var observer: FrequencyObserver?

    /// The column titles: the key path, then count, percent and bar.
    static let countTitle = "count", percentTitle = "%", barTitle = "bar"

    /// Counts `keyPath` over the objects of `entityName` matching `predicate` in `context`.
    /// - Throws: ``QueryError`` for a key path the entity does not have, or the store's error.
    init(keyPath: String, entityName: String, predicate: ObjectPredicate?, context: ObjectContext) throws {
        self.keyPath = keyPath
        self.entityName = entityName
        self.predicate = predicate
        controller = try Self.makeController(keyPath: keyPath, entityName: entityName, predicate: predicate,
                                             sort: [SortKey("count()", ascending: false)], context: context)
        try start()
    }

    private static func makeController(keyPath: String, entityName: String, predicate: ObjectPredicate?, sort: [SortKey],
                                       context: ObjectContext) throws -> AggregateResultsController {
        var request = FetchRequest(entityName: entityName, predicate: predicate)
        request.propertiesToFetch = [.key(keyPath), .count()]
        request.propertiesToGroupBy = [keyPath]
        request.sortDescriptors = sort
        return try AggregateResultsController(fetchRequest: request, context: context)
    }

    /// Fetches the groups and starts following the changes.
    private func start() throws {
        let observer = FrequencyObserver(view: self)
        self.observer = observer
        controller.delegate = observer
        let started = DispatchTime.now().uptimeNanoseconds
        try controller.performFetch()
        fetchSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        recount()
    }

    // MARK: Rows

    /// How many distinct values (rows) there are.
    var rowCount: Int { controller.numberOfGroups }

    /// Row `index`'s value and count.
    func row(at index: Int) -> (value: Value, count: Int64) {
        let group = controller.group(at: index)
        return (group.key.first ?? .null, Self.count(of: group))
    }

    /// The value under the cursor, if there are rows.
    var cursorValue: Value? { rowCount == 0 ? nil : row(at: min(cursor, rowCount - 1)).value }

    private static func count(of group: AggregateGroup) -> Int64 {
        if case .integer(let n) = group["count()"] { return n }
        return 0
    }

    /// What the last change event cost the controller.
    var lastUpdate: AggregateUpdateReport? { controller.lastUpdate }

    /// The cell texts of row `index`, the bar `barWidth` cells wide at most.
    func cells(at index: Int, barWidth: Int) -> [String] {
        let (value, count) = row(at: index)
        let percent = total > 0 ? Double(count) / Double(total) * 100 : 0
        return [Self.text(of: value), String(count), String(format: "%.1f", percent),
                FrequencyBar.text(value: count, maximum: largest, width: barWidth)]
    }

    /// How a value shows in the first column: as the table shows it, `(none)` for no value.
    static func text(of value: Value) -> String {
        if case .null = value { return "(none)" }
        return ControlEscaping.escaped(ValueText.format(value))
    }

    // MARK: Sorting

    /// Sorts by column `column` (the value, or the count for the others), fetching the groups
    /// again in that order.
    /// - Throws: the store's error (the old order then stays).
    func sort(byColumn column: Int, ascending: Bool) throws {
        let key = column == 0 ? SortKey(keyPath, ascending: ascending) : SortKey("count()", ascending: ascending)
        let previous = controller
        controller = try Self.makeController(keyPath: keyPath, entityName: entityName, predicate: predicate, sort: [key],
                                             context: previous.context)
        do {
            try start()
        } catch {
            controller = previous
            previous.delegate = observer
            throw error
        }
        previous.delegate = nil
        sortColumn = column
        sortAscending = ascending
        flashes = [:]
        keepCursor()
    }

    /// Whether `column` is the one sorted by (the count's three columns all are, by count).
    func isSorted(column: Int) -> Bool { sortColumn == 0 ? column == 0 : column > 0 }

    // MARK: Cursor

    /// Moves the cursor by `delta` rows, keeping it on screen.
    func moveCursor(by delta: Int) { moveCursor(to: cursor + delta) }

    /// Puts the cursor on row `index` (clamped), keeping it on screen.
    func moveCursor(to index: Int) {
        cursor = max(0, min(index, rowCount - 1))
        if cursor < top { top = cursor }
        if cursor >= top + pageHeight { top = cursor - pageHeight + 1 }
        cursorKey = rowCount == 0 ? nil : controller.group(at: cursor).key
    }

    /// After a change: the cursor back on its value at the same screen row (or kept in range
    /// when its value left).
    private func keepCursor() {
        let screenRow = cursor - top
        if let key = cursorKey, let index = controller.index(ofGroupWithKey: key) {
            cursor = index
        }
        cursor = max(0, min(cursor, rowCount - 1))
        top = max(0, min(cursor - screenRow, max(0, rowCount - pageHeight)))
        if cursor < top || cursor >= top + pageHeight { top = max(0, cursor - pageHeight + 1) }
        cursorKey = rowCount == 0 ? nil : controller.group(at: cursor).key
    }

    // MARK: Live changes

    /// The total and the largest count, from the groups.
    private func recount() {
        var total: Int64 = 0, largest: Int64 = 0
        for index in 0..<rowCount {
            let count = Self.count(of: controller.group(at: index))
            total += count
            largest = max(largest, count)
        }
        self.total = total
        self.largest = largest
    }

    /// Whether row `index` is highlighted as just changed at uptime `now`.
    func isFlashing(_ index: Int, now: Double) -> Bool {
        guard !flashes.isEmpty else { return false }
        return (flashes[controller.group(at: index).key] ?? 0) > now
    }

    /// Drops expired highlights; returns the uptime at which the next one expires, if any.
    func pruneFlashes(now: Double) -> Double? {
        if !flashes.isEmpty { flashes = flashes.filter { $0.value > now } }
        return flashes.values.min()
    }

    fileprivate func groupChanged(_ group: AggregateGroup, type: ResultsChangeType) {
        if type != .delete { pendingFlash.append(group.key) }
    }

    fileprivate func contentChanged() {
        updates += 1
        recount()
        let until = ResultsTable.uptime() + flashDuration
        for key in pendingFlash { flashes[key] = until }
        pendingFlash = []
        keepCursor()
        onChange?()
    }

    fileprivate func contentReset() {
        flashes = [:]
        recount()
        keepCursor()
        onChange?()
    }

    fileprivate func failed(_ error: FetchedResultsError) {
        onError?(error)
        onChange?()
    }
}

/// Receives the aggregate controller's delegate calls (on the main queue) for a
/// ``FrequencyView``.
private final class FrequencyObserver: AggregateResultsControllerDelegate, @unchecked Sendable {
    // Confined to the main queue: the controller calls its delegate on its context's queue,
    // and the frequency view's controller runs on the main context.
    nonisolated(unsafe) weak var view: FrequencyView?

    init(view: FrequencyView) { self.view = view }

    func controller(_ controller: AggregateResultsController, didChange group: AggregateGroup, at index: Int?,
                    for type: ResultsChangeType, newIndex: Int?) {
        MainActor.assumeIsolated { view?.groupChanged(group, type: type) }
    }

    func controllerDidChangeContent(_ controller: AggregateResultsController) {
        MainActor.assumeIsolated { view?.contentChanged() }
    }

    func controllerDidResetContent(_ controller: AggregateResultsController) {
        MainActor.assumeIsolated { view?.contentReset() }
    }

    func controller(_ controller: AggregateResultsController, didFailWith error: FetchedResultsError) {
        MainActor.assumeIsolated { view?.failed(error) }
    }
}
