/// What one change event did to a fetched-results controller's results, in the delegate's
/// terms and order: section deletes and inserts, then object deletes, inserts, moves and
/// updates (see ``FetchedResultsControllerDelegate``).
///
/// Computed as a pure function of where each changed object was and is (``init(removed:placed:unmoved:before:after:)``),
/// then replayed to the delegate; tests check it without a delegate.
struct ResultsChangeSet: Equatable {
    /// One object's change, as the delegate is told it.
    struct ObjectChange: Equatable {
        var id: ObjectID
        var type: ResultsChangeType
        /// Its path before the event (deletes, moves, updates).
        var from: RowPath?
        /// Its path after the event (inserts, moves).
        var to: RowPath?
    }

    /// One section's change (a section appears or disappears as its first object arrives or
    /// its last one leaves).
    struct SectionChange: Equatable {
        var name: String
        /// Its index before the event (deletes) or after it (inserts).
        var index: Int
        var type: ResultsChangeType
    }

    /// A changed object that is among the results after the event, at global index `new`.
    struct Placement: Equatable {
        var id: ObjectID
        /// Its global index before the event; `nil` when it is new to the results.
        var old: Int?
        /// Its global index after the event.
        var new: Int
        /// How many results that did not change were before its old place, and before its
        /// new one: equal when it kept its place among them.
        var unchangedBeforeOld: Int
        var unchangedBeforeNew: Int
    }

    /// Where sections start (global indexes) and their names, at one moment.
    struct Sections: Equatable {
        var starts: [Int]
        var names: [String]
        /// Whether the results are sectioned by a key path (else one unnamed section).
        var keyed: Bool

        /// The section and row of global index `i`.
        func path(ofIndex i: Int) -> RowPath { FetchedResultsController.path(ofIndex: i, starts: starts) }

        /// The name of the section holding global index `i`.
        func name(ofIndex i: Int) -> String { names[path(ofIndex: i).section] }
    }

    var sections: [SectionChange] = []
    var objects: [ObjectChange] = []

    /// Whether nothing changed.
    var isEmpty: Bool { sections.isEmpty && objects.isEmpty }

    /// The IDs of objects updated in place.
    var updatedIDs: Set<ObjectID> { Set(objects.lazy.filter { $0.type == .update }.map(\.id)) }

    init() {}

    /// The change set of an event that removed `removed` (their old global indexes), placed
    /// `placed` anew (re-added or new), and left `unmoved` where they were (changed in place,
    /// old global indexes), taking the sections from `before` to `after`.
    ///
    /// A re-placed object is an update when it keeps its order relative to every object that
    /// stays put and stays in its section, so that applying the deletes and then the inserts
    /// to the old state gives the new one; of several such objects that swapped places among
    /// themselves, the longest run keeping its relative order is updated and the rest move.
    /// A move to the same path is reported as a delete and an insert.
    init(removed: [(id: ObjectID, old: Int)], placed: [Placement], unmoved: [(id: ObjectID, old: Int)], before: Sections, after: Sections) {
        var deletes = removed
        var inserts: [(id: ObjectID, new: Int)] = []
        var moves: [(id: ObjectID, old: Int, new: Int)] = []
        var updates = unmoved
        var inPlace: [(id: ObjectID, old: Int, new: Int)] = []
        for p in placed {
            guard let old = p.old else {
                inserts.append((p.id, p.new))
                continue
            }
            let keptSection = !before.keyed || before.name(ofIndex: old) == after.name(ofIndex: p.new)
            if p.unchangedBeforeOld == p.unchangedBeforeNew && keptSection {
                inPlace.append((p.id, old, p.new))
            } else {
                moves.append((p.id, old, p.new))
            }
        }
        inPlace = inPlace.sortedByKey(\.old)
        let keep = Self.longestIncreasing(inPlace.map(\.new))
        for (k, c) in inPlace.enumerated() {
            if keep[k] { updates.append((c.id, c.old)) } else { moves.append(c) }
        }
        moves.removeAll { move in
            guard before.path(ofIndex: move.old) == after.path(ofIndex: move.new) else { return false }
            deletes.append((move.id, move.old))
            inserts.append((move.id, move.new))
            return true
        }

        let oldNames = Set(before.names), newNames = Set(after.names)
        for s in before.names.indices.reversed() where !newNames.contains(before.names[s]) {
            sections.append(SectionChange(name: before.names[s], index: s, type: .delete))
        }
        for s in after.names.indices where !oldNames.contains(after.names[s]) {
            sections.append(SectionChange(name: after.names[s], index: s, type: .insert))
        }
        // Index paths sort as global indexes do.
        for (id, old) in deletes.sortedByKey(\.old).reversed() {
            objects.append(ObjectChange(id: id, type: .delete, from: before.path(ofIndex: old), to: nil))
        }
        for (id, new) in inserts.sortedByKey(\.new) {
            objects.append(ObjectChange(id: id, type: .insert, from: nil, to: after.path(ofIndex: new)))
        }
        for (id, old, new) in moves.sortedByKey(\.new) {
            objects.append(ObjectChange(id: id, type: .move, from: before.path(ofIndex: old), to: after.path(ofIndex: new)))
        }
        for (id, old) in updates.sortedByKey(\.old) {
            objects.append(ObjectChange(id: id, type: .update, from: before.path(ofIndex: old), to: nil))
        }
    }

    /// Which elements of `xs` form one longest strictly increasing subsequence (patience sorting).
    static func longestIncreasing(_ xs: [Int]) -> [Bool] {
        var tails: [Int] = []          // index into xs of the smallest tail of each length
        var previous = [Int](repeating: -1, count: xs.count)
        for (i, x) in xs.enumerated() {
            var low = 0, high = tails.count
            while low < high { let mid = (low + high) / 2; if xs[tails[mid]] < x { low = mid + 1 } else { high = mid } }
            if low > 0 { previous[i] = tails[low - 1] }
            if low == tails.count { tails.append(i) } else { tails[low] = i }
        }
        var result = [Bool](repeating: false, count: xs.count)
        var k = tails.last ?? -1
        while k >= 0 { result[k] = true; k = previous[k] }
        return result
    }
}
