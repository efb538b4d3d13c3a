import Foundation
@testable import Quarry

/// Rebuilds an aggregate controller's groups from the changes it reports (deletes at old
/// indexes, then inserts and move destinations at new ones, updates by identity), to compare
/// with the controller's own groups after every event; notes every protocol violation.
final class AggregateRecorder: AggregateResultsControllerDelegate, @unchecked Sendable {
    // Used on the controller's context queue only.
    private(set) var groups: [AggregateGroup]
    private(set) var events = 0
    private(set) var resets = 0
    private(set) var violations: [String] = []
    /// The last event's changes, as text.
    private(set) var log: [String] = []

    private var inEvent = false
    private var removals: [Int] = []
    private var additions: [(Int, AggregateGroup)] = []
    private var updates: [(Int, AggregateGroup)] = []

    init(_ controller: AggregateResultsController) { groups = controller.groups }

    func controllerWillChangeContent(_ controller: AggregateResultsController) {
        if inEvent { violations.append("willChange twice") }
        inEvent = true
        removals = []; additions = []; updates = []; log = []
    }

    func controller(_ controller: AggregateResultsController, didChange group: AggregateGroup, at index: Int?,
                    for type: ResultsChangeType, newIndex: Int?) {
        if !inEvent { violations.append("change outside will/did") }
        log.append("\(type) \(index.map(String.init) ?? "-")→\(newIndex.map(String.init) ?? "-") \(group.key)")
        switch type {
        case .delete: removals.append(index!)
        case .insert: additions.append((newIndex!, group))
        case .move:
            if index == newIndex { violations.append("move to the same index \(index!)") }
            removals.append(index!); additions.append((newIndex!, group))
        case .update: updates.append((index!, group))
        }
    }

    func controllerDidChangeContent(_ controller: AggregateResultsController) {
        if !inEvent { violations.append("didChange without willChange") }
        inEvent = false
        events += 1
        var list = groups
        let updatedKeys = Dictionary(updates.map { (groups[$0.0].key, $0.1) }, uniquingKeysWith: { a, _ in a })
        if Set(removals).count != removals.count { violations.append("an index removed twice: \(removals)") }
        for i in removals.sorted(by: >) { list.remove(at: i) }
        for (i, g) in additions.sorted(by: { $0.0 < $1.0 }) {
            guard i <= list.count else { violations.append("insert at \(i) beyond \(list.count)"); continue }
            list.insert(g, at: i)
        }
        groups = list.map { updatedKeys[$0.key] ?? $0 }
    }

    func controllerDidResetContent(_ controller: AggregateResultsController) {
        resets += 1
        groups = controller.groups
    }

    func controller(_ controller: AggregateResultsController, didFailWith error: FetchedResultsError) {
        violations.append("failed: \(error)")
    }
}

/// Whether two groups' values agree: equal, or doubles within a relative 1e-9 (a live sum
/// adds and subtracts in another order than a fresh one).
func aggregateValuesAgree(_ a: [String: Value], _ b: [String: Value]) -> Bool {
    guard Set(a.keys) == Set(b.keys) else { return false }
    return a.allSatisfy { key, x in
        let y = b[key] ?? .null
        if case .double(let p) = x, case .double(let q) = y { return p == q || abs(p - q) <= 1e-9 * max(abs(p), abs(q)) }
        return x == y
    }
}

/// Whether two group lists agree key by key, in order, with values by ``aggregateValuesAgree(_:_:)``.
func aggregateGroupsAgree(_ a: [AggregateGroup], _ b: [AggregateGroup]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && aggregateValuesAgree($0.values, $1.values) }
}
