import Foundation
import Quarry

/// The summary line (`%`, `:summary`): for each column of the table, over the objects it shows
/// (its filter respected), the count, sum, mean, minimum and maximum of a numeric column, the
/// count and distinct count of any other; once for the whole table and once per section.
///
/// Kept live like the frequency view: two ``AggregateResultsController``s (one group of every
/// object, and one group per section key value when the table is sectioned) adjust their
/// aggregates from each change event, never running the query again. Main actor only, like
/// the main context they read.
@MainActor
final class TableSummary {
    /// What the summary was computed for: a change of entity, filter, scope or section key
    /// makes a new one.
    struct Key: Equatable {
        var entityName: String
        var filter: String?
        var scope: TableScope?
        var sectionKey: String?

        init(_ query: TableQuery) {
            entityName = query.entityName
            filter = query.filter
            scope = query.scope
            sectionKey = query.sectionKey
        }
    }

    /// The query the summary is of.
    let key: Key
    /// The columns summarised (every column of the entity, hidden ones included) with the
    /// aggregates each reads.
    private let columns: [ColumnSpec.Source: ColumnAggregates]
    /// The group of every object, and the groups by section (when sectioned).
    private let total: AggregateResultsController
    private let bySection: AggregateResultsController?
    private var observer: SummaryObserver?
    /// Called after a change event updated the aggregates, and when the reads finish.
    var onChange: (@MainActor () -> Void)?
    /// Called with a message when a read fails.
    var onError: (@MainActor (String) -> Void)?
    /// Cancels the controllers' reads when the summary goes (hidden, or made again).
    private let cancellation = QueryCancellation()
    /// The controllers whose read has not finished.
    private var pending = 0
    /// Why a read failed, if one did.
    private var failure: String?
    /// Tests waiting for the reads.
    private let liveWaiters = SettleWaiters()

    /// The aggregates of one column, by their result names.
    struct ColumnAggregates {
        /// Whether the column is numeric (sum, mean, min, max) or not (distinct count).
        var isNumeric: Bool
        var count: FetchedProperty
        var others: [FetchedProperty]
    }

    /// Summarises `columns` over the objects of `query` in `context`.
    /// - Throws: ``QueryError`` for a filter or key the controllers cannot read, or the store's error.
    init(query: TableQuery, columns specs: [ColumnSpec], context: ObjectContext) throws {
        key = Key(query)
        var columns: [ColumnSpec.Source: ColumnAggregates] = [:]
        var properties: [FetchedProperty] = [.count()]
        for spec in specs {
            guard let path = spec.sortKeyPath else { continue }
            let aggregates: ColumnAggregates
            if case .attribute(_, let type) = spec.source, ValueText.isNumeric(type) {
                aggregates = ColumnAggregates(isNumeric: true, count: .aggregate(.count, path),
                                              others: [.aggregate(.sum, path), .aggregate(.avg, path), .aggregate(.min, path), .aggregate(.max, path)])
            } else {
                aggregates = ColumnAggregates(isNumeric: false, count: .aggregate(.count, path), others: [.aggregate(.countDistinct, path)])
            }
            columns[spec.source] = aggregates
            properties.append(aggregates.count)
            properties.append(contentsOf: aggregates.others)
        }
        self.columns = columns
        let predicate = try query.predicate()
        var request = FetchRequest(entityName: query.entityName, predicate: predicate)
        request.propertiesToFetch = properties
        total = try AggregateResultsController(fetchRequest: request, context: context)
        if let sectionKey = query.sectionKey {
            request.propertiesToFetch = [.key(sectionKey)] + properties
            request.propertiesToGroupBy = [sectionKey]
            bySection = try AggregateResultsController(fetchRequest: request, context: context)
        } else {
            bySection = nil
        }
        let observer = SummaryObserver(summary: self)
        self.observer = observer
        total.delegate = observer
        bySection?.delegate = observer
        // The controllers read the store off the main queue, after this key's frame is drawn:
        // the line says "computing…" until both are in place, then follows the changes.
        let controllers = [total] + (bySection.map { [$0] } ?? [])
        pending = controllers.count
        let cancellation = self.cancellation
        for controller in controllers {
            context.perform {
                controller.performFetch(cancellation: cancellation) { [weak self] error in
                    MainActor.assumeIsolated { self?.fetched(error) }
                }
            }
        }
    }

    deinit { cancellation.cancel() }

    /// Whether every controller read the store and follows the changes.
    var isLive: Bool { pending == 0 && failure == nil }

    /// One controller's read finished (`error`: it could not be read).
    private func fetched(_ error: Error?) {
        pending -= 1
        if let error, !(error is QueryCancellationError), failure == nil {
            failure = "\(error)"
            onError?("cannot summarise: \(error)")
        }
        if pending == 0 { liveWaiters.resumeAll() }
        onChange?()
    }

    /// Waits until every controller's read finished (tests).
    func settled() async {
        while pending > 0 {
            await liveWaiters.wait()
        }
    }

    /// The cells of the whole table's summary line for `columns` (the first says how many rows).
    func totalCells(_ columns: [ColumnSpec]) -> [String] {
        cells(total.numberOfGroups > 0 ? total.group(at: 0) : nil, columns: columns)
    }

    /// The cells of section `name`'s summary line (`name` as the table shows it: `""` for no value).
    func sectionCells(_ name: String, columns: [ColumnSpec]) -> [String] {
        guard let bySection else { return [] }
        let index = (0..<bySection.numberOfGroups).first { Self.sectionName(bySection.group(at: $0).key.first ?? .null) == name }
        return cells(index.map(bySection.group(at:)), columns: columns)
    }

    /// A section key value as the table names its section (the fetched-results controller's rule).
    static func sectionName(_ value: Value) -> String {
        switch value {
        case .null: return ""
        case .string(let s): return s
        default: return value.description
        }
    }

    /// The text of each column's aggregates in `group` (`n=30 sum=4350 avg=145 min=0 max=290`,
    /// `n=30 distinct=3`); the first column's text starts with `Σ`.
    private func cells(_ group: AggregateGroup?, columns specs: [ColumnSpec]) -> [String] {
        guard isLive else {
            return specs.indices.map { $0 == 0 ? (failure == nil ? "Σ computing…" : "Σ unavailable") : "" }
        }
        return specs.enumerated().map { index, spec in
            guard let group, let aggregates = columns[spec.source] else { return index == 0 ? "Σ" : "" }
            let n = ValueText.format(group[aggregates.count.name])
            var parts = ["n=\(n.isEmpty ? "0" : n)"]
            if aggregates.isNumeric {
                for (label, property) in zip(["sum", "avg", "min", "max"], aggregates.others) {
                    let value = group[property.name]
                    guard value != .null else { continue }
                    parts.append("\(label)=\(Self.compact(value))")
                }
            } else if let distinct = aggregates.others.first {
                parts.append("distinct=\(ValueText.format(group[distinct.name]))")
            }
            return (index == 0 ? "Σ " : "") + parts.joined(separator: " ")
        }
    }

    /// A number as short as it reads: `4350`, `172.58`, `0.5` (at most two decimals).
    nonisolated static func compact(_ value: Value) -> String {
        guard case .double(let d) = value, d.isFinite else { return ValueText.format(value) }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        var text = String(format: "%.2f", d)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    fileprivate func changed() { onChange?() }
}

/// Receives the summary's controllers' delegate calls (on the main queue).
private final class SummaryObserver: AggregateResultsControllerDelegate, @unchecked Sendable {
    // Confined to the main queue: the controllers call their delegate on their context's
    // queue, and the summary's controllers run on the main context.
    nonisolated(unsafe) weak var summary: TableSummary?

    init(summary: TableSummary) { self.summary = summary }

    func controllerDidChangeContent(_ controller: AggregateResultsController) {
        MainActor.assumeIsolated { summary?.changed() }
    }

    func controllerDidResetContent(_ controller: AggregateResultsController) {
        MainActor.assumeIsolated { summary?.changed() }
    }
}
