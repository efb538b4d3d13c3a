/// One object's stored state (a ``Snapshot`` carried by a save) as a predicate subject.
///
/// A snapshot holds the object's own attributes and to-one destinations only, so it can answer
/// key paths that end on the object itself (`price`, `sector` as a destination, compared with
/// `nil` or an ID) but not ones that step through a relationship (`sector.name`). Use it only
/// where ``KeyPathPlan/isLocal`` holds for every key path involved (the sort keys and
/// ``ObjectPredicate/keyPaths``); the relationship steps answer "no destination".
struct SnapshotSubject: PredicateSubject {
    typealias ReadFailure = Never
    let snapshot: Snapshot

    func attributeValue(_ index: Int) -> Value {
        index < snapshot.values.count ? snapshot.values[index] : .null
    }

    func toOne(_ r: Int) -> SnapshotSubject? { nil }

    func toOneKey(_ r: Int) -> Int64? { r < snapshot.toOne.count ? snapshot.toOne[r]?.primaryKey : nil }

    func toMany(_ r: Int) -> [SnapshotSubject] { [] }

    func toManyCount(_ r: Int) -> Int { 0 }
}

extension KeyPathPlan {
    /// Whether the path ends on the object itself (no relationship is followed), so the
    /// object's own stored state answers it.
    var isLocal: Bool { steps.isEmpty }
}

extension ObjectPredicate {
    /// Every key path the predicate reads from the evaluated object, in order of appearance:
    /// for a subquery, its collection (a to-many: what its inner predicate reads is relative
    /// to the elements, so the object's own state never answers it).
    var keyPaths: [String] {
        func paths(_ operand: Operand) -> [String] {
            switch operand {
            case .keyPath(let path): return [path]
            case .list(let items): return items.flatMap(paths)
            case .subquery(let s): return [s.collection]
            case .constant, .variable: return []
            }
        }
        switch self {
        case .truePredicate, .falsePredicate: return []
        case .comparison(let c): return paths(c.lhs) + paths(c.rhs)
        case .and(let ps), .or(let ps): return ps.flatMap(\.keyPaths)
        case .not(let p): return p.keyPaths
        }
    }
}
