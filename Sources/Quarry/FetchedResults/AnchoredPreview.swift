/// The rows just before and from an object in a fetch's order, and its position, read
/// without the rest: the queries behind a preview that opens a large table on one object
/// (``FetchedResultsController/performFetch(cancellation:previewAround:rows:completion:)``).
///
/// Only an order these queries reproduce exactly qualifies: one sort key, an attribute of the
/// entity's own of a comparable type (strings compared by their bytes) that a uniqueness
/// constraint of its own makes unique, with a value on the anchor. No two results then tie
/// but those without a value, so each part is a range an index on the key answers: `key <
/// value` read backwards from the anchor, `key >= value` forwards, and the results without a
/// value (which sort first ascending and last descending, as the stores sort `NULL`) apart,
/// in primary-key order. Any other order has no anchored preview (`init` returns `nil`), and
/// is fetched whole.
struct AnchoredPreview {
    /// A range of the results, and the direction it is read in from the anchor.
    struct Part {
        /// The results it holds.
        var predicate: ObjectPredicate
        /// Whether they are the ones without a value (ties, in primary-key order).
        var isNull: Bool
    }

    /// The parts sorting before the anchor, the nearest first.
    let before: [Part]
    /// The parts from the anchor on, in order (the anchor first).
    let fromAnchor: [Part]

    /// The parts around the object whose sort key holds `value`, or `nil` when the order does
    /// not qualify (see the type's description).
    init?(value: Value, sortKeys: [SortKey], entity: EntityDescription) {
        guard sortKeys.count == 1, let key = sortKeys.first, value != .null, !key.keyPath.contains("."),
              entity.uniquenessConstraints.contains([key.keyPath]),
              let attribute = entity.attribute(key.keyPath), !attribute.isTransient, Self.orderable.contains(attribute.type),
              attribute.type != .string || key.comparison == .binary else { return nil }
        let path = Operand.keyPath(key.keyPath)
        func compared(_ op: ComparisonOperator) -> Part {
            Part(predicate: .comparison(PredicateComparison(path, op, .constant(value))), isNull: false)
        }
        let null = Part(predicate: .comparison(PredicateComparison(path, .equal, .constant(.null))), isNull: true)
        if key.ascending {
            before = [compared(.less), null]
            fromAnchor = [compared(.greaterOrEqual)]
        } else {
            before = [compared(.greater)]
            fromAnchor = [compared(.lessOrEqual), null]
        }
    }

    /// The attribute types whose stored values the predicates compare in the stores' sort order.
    private static let orderable: Set<AttributeType> = [.integer16, .integer32, .integer64, .double, .float, .string, .boolean, .date]
}

extension FetchedResultsController {
    /// Makes the `rows` results of `query` before `anchor` and the `rows` from it on the
    /// results, marked incomplete, with ``previewOffset`` and ``previewTotal``; returns `false`
    /// (nothing changed) when the order has no anchored preview or `anchor` is not among the
    /// results.
    func installPreview(of query: StoreQuery, around anchor: ObjectID, rows: Int) throws -> Bool {
        let store = context.readStore
        guard sectionNameKeyPath == nil, query.restrictedTo == nil,
              query.entity.index == Int(anchor.entityIndex)
                || (query.includesSubentities && query.entity.selfAndDescendantIndices.contains(Int(anchor.entityIndex))),
              let key = fetchRequest.sortDescriptors.first else { return false }
        let value: Value
        do {
            value = try context.object(with: anchor).value(forKey: key.keyPath)
        } catch {
            // Deleted, or unreadable: the whole index decides (the fetch reports a failure).
            return false
        }
        guard let parts = AnchoredPreview(value: value, sortKeys: fetchRequest.sortDescriptors, entity: query.entity) else { return false }
        func restricted(to part: AnchoredPreview.Part) -> StoreQuery {
            var q = query
            q.predicate = q.predicate.map { $0 && part.predicate } ?? part.predicate
            return q
        }
        /// Up to `limit` results of `part`, in the fetch's order, nearest the anchor (`before`:
        /// the last ones, with how many it holds).
        func read(_ part: AnchoredPreview.Part, before: Bool, limit: Int) throws -> (entries: [SortedResults.Entry], count: Int?) {
            var q = restricted(to: part)
            let count = before ? try store.count(for: q) : nil
            guard limit > 0 else { return ([], count) }
            q.limit = limit
            if before && part.isNull {
                // Ties, in primary-key order: the last ones, read forwards.
                q.offset = max(0, (count ?? 0) - limit)
            } else if before {
                // Unique values: read backwards from the anchor, then turned round.
                q.sortDescriptors = [SortKey(key.keyPath, ascending: !key.ascending, comparison: key.comparison)]
            }
            let found = try SortedResults.fetch(q, from: store, sortKeys: q.sortDescriptors)
            var entries = (0..<found.count).map { SortedResults.Entry(id: found.id(at: $0), keys: found.keys(at: $0)) }
            if before && !part.isNull { entries.reverse() }
            return (entries, count)
        }
        var after: [SortedResults.Entry] = []
        for part in parts.fromAnchor {
            after += try read(part, before: false, limit: rows - after.count).entries
        }
        guard after.first?.id == anchor else { return false }
        var preceding: [SortedResults.Entry] = []
        var offset = 0
        for part in parts.before {
            let (entries, count) = try read(part, before: true, limit: rows - preceding.count)
            preceding = entries + preceding
            offset += count ?? 0
        }
        var builder = SortedResults.Builder(sortKeys: fetchRequest.sortDescriptors)
        for entry in preceding + after { builder.append(entry) }
        results = builder.finish()
        isComplete = false
        previewOffset = offset - preceding.count
        previewTotal = query.predicate == nil ? try store.count(for: query) : nil
        rebuildSections()
        return true
    }
}
