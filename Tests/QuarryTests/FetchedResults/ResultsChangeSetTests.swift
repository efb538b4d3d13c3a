import Testing
@testable import Quarry

/// The change set a controller reports, computed from where changed objects were and are.
@Suite("Fetched-results change sets")
struct ResultsChangeSetTests {
    let a = ObjectID(entityIndex: 0, primaryKey: 1)
    let b = ObjectID(entityIndex: 0, primaryKey: 2)
    let c = ObjectID(entityIndex: 0, primaryKey: 3)

    func one(_ count: Int) -> ResultsChangeSet.Sections { .init(starts: [0], names: [""], keyed: false) }

    func placed(_ id: ObjectID, _ old: Int?, _ new: Int, unchanged: (Int, Int)) -> ResultsChangeSet.Placement {
        .init(id: id, old: old, new: new, unchangedBeforeOld: unchanged.0, unchangedBeforeNew: unchanged.1)
    }

    @Test("deletes by old path descending, inserts by new path, updates by old path")
    func order() {
        let changes = ResultsChangeSet(removed: [(a, 0), (b, 3)], placed: [placed(c, nil, 1, unchanged: (0, 1))],
                                       unmoved: [(b, 2)], before: one(4), after: one(3))
        #expect(changes.objects.map(\.type) == [.delete, .delete, .insert, .update])
        #expect(changes.objects.map(\.from) == [RowPath(section: 0, row: 3), RowPath(section: 0, row: 0), nil, RowPath(section: 0, row: 2)])
        #expect(changes.objects[2].to == RowPath(section: 0, row: 1))
        #expect(changes.sections.isEmpty && changes.updatedIDs == [b])
    }

    @Test("two re-placed objects that swapped: the longest run in order is updated, the other moves")
    func swap() {
        // a was at 0, b at 1; now b is at 0, a at 1; nothing else changed.
        let changes = ResultsChangeSet(removed: [], placed: [placed(a, 0, 1, unchanged: (0, 0)), placed(b, 1, 0, unchanged: (0, 0))],
                                       unmoved: [], before: one(2), after: one(2))
        #expect(changes.objects.map(\.type).sorted { $0.rawValue < $1.rawValue } == [.move, .update])
        let move = changes.objects.first { $0.type == .move }!
        #expect(move.from != move.to, "a move never goes to the same path")
    }

    @Test("a move to the same path is a delete and an insert; a re-placed object past unchanged ones moves")
    func samePathMove() {
        // a at 1 goes past 2 unchanged results to index 2; b at 2 was dropped back to 1...
        let changes = ResultsChangeSet(removed: [], placed: [placed(a, 1, 1, unchanged: (1, 0))],
                                       unmoved: [], before: one(3), after: one(3))
        #expect(changes.objects.map(\.type) == [.delete, .insert])
        let moved = ResultsChangeSet(removed: [], placed: [placed(a, 0, 2, unchanged: (0, 2))],
                                     unmoved: [], before: one(3), after: one(3))
        #expect(moved.objects == [.init(id: a, type: .move, from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 2))])
    }

    @Test("sections: a section emptied is deleted (descending), a new one inserted")
    func sections() {
        let before = ResultsChangeSet.Sections(starts: [0, 1, 2], names: ["A", "B", "C"], keyed: true)
        let after = ResultsChangeSet.Sections(starts: [0, 1], names: ["A", "D"], keyed: true)
        // b left section B (its only member) for the new D; c (section C's only one) was deleted.
        let changes = ResultsChangeSet(removed: [(c, 2)], placed: [placed(b, 1, 1, unchanged: (1, 1))],
                                       unmoved: [], before: before, after: after)
        #expect(changes.sections == [.init(name: "C", index: 2, type: .delete), .init(name: "B", index: 1, type: .delete),
                                     .init(name: "D", index: 1, type: .insert)])
        // b's place is the same path in the new section: a delete and an insert, not a move.
        #expect(changes.objects.map(\.type) == [.delete, .delete, .insert])
        #expect(changes.objects.map(\.id) == [c, b, b])
    }

    @Test("longest increasing run")
    func longestIncreasing() {
        #expect(ResultsChangeSet.longestIncreasing([3, 1, 2, 5, 4]) == [false, true, true, true, false] ||
                ResultsChangeSet.longestIncreasing([3, 1, 2, 5, 4]) == [false, true, true, false, true])
        #expect(ResultsChangeSet.longestIncreasing([]) == [])
    }
}
