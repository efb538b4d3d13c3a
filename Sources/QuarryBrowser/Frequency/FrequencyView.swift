import Foundation
import Quarry
import QuarryTUI

/// The frequency view (`F`, `:freq KEYPATH`): one row per distinct value of a key path over the
/// table's objects (its filter respected), or per bin of numbers and dates (``FrequencyBins``:
/// automatic over more than ``binningThreshold`` values, `<`/`>` change their width), with
/// its count, its share of the total and a bar, sorted by count.
///
/// Kept live by an ``AggregateResultsController`` (`count()` grouped by the key path): after
/// each change event the controller adjusts the groups the changed objects left or joined,
/// without running `GROUP BY` again, and tells which groups changed; their rows flash, the
/// cursor stays on its value, and ``lastUpdate`` says what the update cost. Main actor only,
/// like the main context the controller reads.
///
/// The first screen comes from one grouped fetch (``ObjectContext/fetchDictionaries(_:)``,
/// which adds the rows up as it streams them); the controller, which keeps every object's
/// contribution, reads the store off the main queue meanwhile and takes over once it has
/// (``isLive``), applying the changes that came in between.
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
    /// The key of the row under the cursor (its group's, or `[bin]`), followed across changes.
    private var cursorKey: [Value]?
    /// The bins, when numbers or dates are binned.
    private(set) var bins: FrequencyBins?
    /// Over how many distinct numbers or dates the view bins them by itself.
    static let binningThreshold = 20

    /// The sum of the counts (the objects counted) and the largest count (the longest bar).
    private(set) var total: Int64 = 0
    private(set) var largest: Int64 = 0
    /// How many change events updated the rows.
    private(set) var updates = 0
    /// Seconds the first fetch took.
    private(set) var fetchSeconds = 0.0
    /// Whether the controller has taken over from the first screen's snapshot.
    private(set) var isLive = false
    /// The groups of the first screen, until the controller is live.
    private var snapshot: [AggregateGroup] = []
    /// Who waits for the view to go live (``Browser/frequencyViewSettled()``).
    let liveWaiters = SettleWaiters()
    /// Stops the controller's background read when the view closes first.
    private let cancellation = QueryCancellation()

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
        let started = DispatchTime.now().uptimeNanoseconds
        snapshot = try context.fetchDictionaries(controller.fetchRequest).map { row in AggregateGroup(key: [row[keyPath] ?? .null], values: row) }
        fetchSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        if rowCount > Self.binningThreshold, let kind = valueKind { bins = makeBins(kind: kind) }
        recount()
        let observer = FrequencyObserver(view: self)
        self.observer = observer
        controller.delegate = observer
        // The controller's read starts once this key's frame is drawn: it does not compete with it.
        let controller = self.controller, cancellation = self.cancellation
        context.perform {
            controller.performFetch(cancellation: cancellation) { [weak self] error in
                MainActor.assumeIsolated { self?.wentLive(error) }
            }
        }
    }

    deinit { cancellation.cancel() }

    /// The controller's groups are in place (or could not be read): it takes over.
    private func wentLive(_ error: Error?) {
        if let error {
            if !(error is QueryCancellationError) { onError?(.refetchFailed(entity: entityName, reason: "\(error)")) }
        } else {
            isLive = true
            snapshot = []
            if let kind = bins?.kind { bins = makeBins(kind: kind, width: bins?.width) }
            recount()
            keepCursor()
        }
        liveWaiters.resumeAll()
        onChange?()
    }

    /// The kind of the values counted when they can be binned (numbers, dates).
    var valueKind: FrequencyBins.Kind? {
        for index in 0..<groupCount {
            guard let value = group(at: index).key.first, value != .null else { continue }
            return FrequencyBins.kind(of: value)
        }
        return nil
    }

    /// Bins of the controller's groups as they are, in the view's order.
    private func makeBins(kind: FrequencyBins.Kind, width: Double? = nil) -> FrequencyBins {
        let values = (0..<groupCount).map { index -> (Value, Int64) in
            let group = group(at: index)
            return (group.key.first ?? .null, Self.count(of: group))
        }
        var made = FrequencyBins(kind: kind, values: values, width: width)
        made.sort(byBin: sortColumn == 0, ascending: sortAscending)
        return made
    }

    /// `>` (`wider`) or `<`: bins numbers and dates, or makes the bins wider or narrower;
    /// returns why not.
    func stepBins(wider: Bool) -> String? {
        guard let kind = bins?.kind ?? valueKind else { return "only numbers and dates are binned" }
        if bins == nil {
            bins = makeBins(kind: kind)
        } else if bins?.step(wider: wider) != true {
            return wider ? "the bins are as wide as they go" : "the bins are as narrow as they go"
        }
        bins?.sort(byBin: sortColumn == 0, ascending: sortAscending)
        flashes = [:]
        cursorKey = nil
        recount()
        keepCursor()
        return nil
    }

    /// The key row `index` is followed by: its group's key, or its bin.
    private func key(at index: Int) -> [Value] {
        guard let bins else { return group(at: index).key }
        return [Self.binKey(bins.order[index])]
    }

    private static func binKey(_ bin: Int64?) -> Value { bin.map(Value.integer) ?? .null }

    /// The row whose key is `key`, if it is shown.
    private func index(ofKey key: [Value]) -> Int? {
        guard let bins else { return isLive ? controller.index(ofGroupWithKey: key) : snapshot.firstIndex { $0.key == key } }
        return bins.order.firstIndex { [Self.binKey($0)] == key }
    }

    private static func makeController(keyPath: String, entityName: String, predicate: ObjectPredicate?, sort: [SortKey],
                                       context: ObjectContext) throws -> AggregateResultsController {
        var request = FetchRequest(entityName: entityName, predicate: predicate)
        request.propertiesToFetch = [.key(keyPath), .count()]
        request.propertiesToGroupBy = [keyPath]
        request.sortDescriptors = sort
        return try AggregateResultsController(fetchRequest: request, context: context)
    }

    /// Fetches the groups at once (a new sort) and follows the changes.
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

    /// How many groups there are: the controller's, or the first screen's until it is live.
    private var groupCount: Int { isLive ? controller.numberOfGroups : snapshot.count }

    /// Group `index`: the controller's, or the first screen's until it is live.
    private func group(at index: Int) -> AggregateGroup { isLive ? controller.group(at: index) : snapshot[index] }

    /// How many rows (distinct values or bins) there are.
    var rowCount: Int { bins?.order.count ?? groupCount }

    /// Row `index`'s text and count.
    func row(at index: Int) -> (label: String, count: Int64) {
        if let bins {
            let bin = bins.order[index]
            return (bins.label(of: bin), bins.count(of: bin))
        }
        let group = group(at: index)
        return (Self.text(of: group.key.first ?? .null), Self.count(of: group))
    }

    /// The value under the cursor, if there are rows and they are not bins.
    var cursorValue: Value? {
        guard bins == nil, rowCount > 0 else { return nil }
        return group(at: min(cursor, rowCount - 1)).key.first ?? .null
    }

    /// The filter keeping the objects of the row under the cursor (its value, or its bin).
    var cursorCondition: ObjectPredicate? {
        guard rowCount > 0 else { return nil }
        if let bins { return bins.condition(of: bins.order[min(cursor, rowCount - 1)], keyPath: keyPath) }
        return cursorValue.map { PredicateKey(keyPath) == $0 }
    }

    private static func count(of group: AggregateGroup) -> Int64 {
        if case .integer(let n) = group["count()"] { return n }
        return 0
    }

    /// What the last change event cost the controller (`nil` before it is live).
    var lastUpdate: AggregateUpdateReport? { isLive ? controller.lastUpdate : nil }

    /// The cell texts of row `index`, the bar `barWidth` cells wide at most.
    func cells(at index: Int, barWidth: Int) -> [String] {
        let (label, count) = row(at: index)
        let percent = total > 0 ? Double(count) / Double(total) * 100 : 0
        return [label, String(count), String(format: "%.1f", percent),
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
    /// - Throws: the store's error (the old order then stays), or ``NotLiveYet`` before the
    ///   controller took over.
    func sort(byColumn column: Int, ascending: Bool) throws {
        if bins != nil {
            sortColumn = column
            sortAscending = ascending
            bins?.sort(byBin: column == 0, ascending: ascending)
            keepCursor()
            return
        }
        guard isLive else { throw NotLiveYet() }
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
        cursorKey = rowCount == 0 ? nil : key(at: cursor)
    }

    /// After a change: the cursor back on its value at the same screen row (or kept in range
    /// when its value left).
    private func keepCursor() {
        let screenRow = cursor - top
        if let key = cursorKey, let index = index(ofKey: key) {
            cursor = index
        }
        cursor = max(0, min(cursor, rowCount - 1))
        top = max(0, min(cursor - screenRow, max(0, rowCount - pageHeight)))
        if cursor < top || cursor >= top + pageHeight { top = max(0, cursor - pageHeight + 1) }
        cursorKey = rowCount == 0 ? nil : key(at: cursor)
    }

    // MARK: Live changes

    /// The total and the largest count, from the groups.
    private func recount() {
        var total: Int64 = 0, largest: Int64 = 0
        if let bins {
            for count in bins.binCounts.values {
                total += count
                largest = max(largest, count)
            }
            self.total = total
            self.largest = largest
            return
        }
        for index in 0..<groupCount {
            let count = Self.count(of: group(at: index))
            total += count
            largest = max(largest, count)
        }
        self.total = total
        self.largest = largest
    }

    /// Whether row `index` is highlighted as just changed at uptime `now`.
    func isFlashing(_ index: Int, now: Double) -> Bool {
        guard !flashes.isEmpty else { return false }
        return (flashes[key(at: index)] ?? 0) > now
    }

    /// Drops expired highlights; returns the uptime at which the next one expires, if any.
    func pruneFlashes(now: Double) -> Double? {
        if !flashes.isEmpty { flashes = flashes.filter { $0.value > now } }
        return flashes.values.min()
    }

    fileprivate func groupChanged(_ group: AggregateGroup, type: ResultsChangeType) {
        // Changes replayed as the controller goes live are in the groups it takes over with.
        guard isLive else { return }
        if bins != nil {
            let bin = bins?.set(group.key.first ?? .null, count: type == .delete ? 0 : Self.count(of: group))
            pendingFlash.append([Self.binKey(bin)])
        } else if type != .delete {
            pendingFlash.append(group.key)
        }
    }

    fileprivate func contentChanged() {
        guard isLive else { return }
        updates += 1
        bins?.sort(byBin: sortColumn == 0, ascending: sortAscending)
        recount()
        let until = ResultsTable.uptime() + flashDuration
        for key in pendingFlash { flashes[key] = until }
        pendingFlash = []
        keepCursor()
        onChange?()
    }

    fileprivate func contentReset() {
        guard isLive else { return }
        flashes = [:]
        if let kind = bins?.kind { bins = makeBins(kind: kind) }
        recount()
        keepCursor()
        onChange?()
    }

    fileprivate func failed(_ error: FetchedResultsError) {
        onError?(error)
        onChange?()
    }
}

/// A sort asked for before the frequency view went live (its groups are still being read).
struct NotLiveYet: Error, CustomStringConvertible {
    var description: String { "still counting (a moment)" }
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
