extension FetchedResultsController {
    /// A result taken out of its old place by a change event.
    private struct Drop {
        /// Why it is taken out.
        enum Reason {
            /// It left the results (deleted, or no longer matching).
            case removed(ObjectID)
            /// It is placed anew as `additions[index]`; `sameID` unless a temporary ID became
            /// permanent (then its position-index entry is removed, not rewritten).
            case replaced(index: Int, sameID: Bool)
        }

        var location: SortedResults.Location
        /// Its global index before the event.
        var index: Int
        var reason: Reason
    }

    /// Applies `decisions` to the results, then tells the delegate what changed.
    func applyAndReport(_ decisions: Decisions) {
        guard let changes = apply(decisions) else { return }
        report(changes)
    }

    /// Moves the changed entries: objects whose sort keys are unchanged stay put (updated in
    /// place); the others are dropped from their old place and added anew. Returns what
    /// changed, or `nil` when nothing did.
    func apply(_ decisions: Decisions) -> ResultsChangeSet? {
        var unmoved: [(id: ObjectID, old: Int)] = []
        var drops: [Drop] = []
        var additions: [SortedResults.Entry] = []
        let found = results.locate(decisions.upserts.map(\.entry))
        for (u, upsert) in decisions.upserts.enumerated() {
            let id = upsert.entry.id
            if let renamed = upsert.renamedFrom {
                let old = results.index(of: renamed)
                if upsert.cancelled {
                    drops.append(Drop(location: renamed, index: old, reason: .removed(id)))
                } else {
                    drops.append(Drop(location: renamed, index: old, reason: .replaced(index: additions.count, sameID: false)))
                    additions.append(upsert.entry)
                }
                continue
            }
            guard !upsert.cancelled else { continue }  // its deletion is among `leaving`
            if let place = found[u] {
                if place.sameKeys {
                    unmoved.append((id, place.index))
                    continue
                }
                drops.append(Drop(location: place.location, index: place.index, reason: .replaced(index: additions.count, sameID: true)))
            }
            additions.append(upsert.entry)
        }
        for (id, l) in zip(decisions.untouched, results.locations(of: decisions.untouched)) {
            if let l { unmoved.append((id, results.index(of: l))) }
        }
        for (id, l) in zip(decisions.leaving, results.locations(of: decisions.leaving)) {
            if let l { drops.append(Drop(location: l, index: results.index(of: l), reason: .removed(id))) }
        }
        guard !drops.isEmpty || !additions.isEmpty || !unmoved.isEmpty else { return nil }

        let before = currentSections
        let (removed, placed) = move(drops: drops, additions: additions)
        return ResultsChangeSet(removed: removed, placed: placed, unmoved: unmoved, before: before, after: currentSections)
    }

    /// Takes the dropped results out of the index and merges the additions in; returns the
    /// removed objects (old global indexes) and where each addition went.
    private func move(drops: [Drop], additions: [SortedResults.Entry]) -> (removed: [(id: ObjectID, old: Int)], placed: [ResultsChangeSet.Placement]) {
        // One drop per location, in index order; a location dropped twice (an object both
        // re-added and removed) keeps its position-index entry only if every drop re-adds it
        // under the same ID.
        var locations: [SortedResults.Location] = []
        var keepsEntry: [Bool] = []
        var removed: [(id: ObjectID, old: Int)] = []
        var oldPlace = [(index: Int, unchangedBefore: Int)?](repeating: nil, count: additions.count)
        for drop in drops.sortedByKey({ $0.location.slot << 16 | $0.location.offset }) {
            var sameID = false
            if case .replaced(_, true) = drop.reason { sameID = true }
            if locations.last != drop.location {
                locations.append(drop.location)
                keepsEntry.append(sameID)
            } else if !sameID {
                keepsEntry[keepsEntry.count - 1] = false
            }
            switch drop.reason {
            case .removed(let id):
                removed.append((id, drop.index))
            case .replaced(let a, _):
                // Results before it that are not dropped: its index less the earlier drops.
                oldPlace[a] = (drop.index, drop.index - (locations.count - 1))
            }
        }
        guard !locations.isEmpty || !additions.isEmpty else { return (removed, []) }
        let newPlaces = results.apply(dropping: locations, adding: additions, readded: keepsEntry)
        rebuildSections()
        let placed = additions.indices.map { a in
            ResultsChangeSet.Placement(id: additions[a].id, old: oldPlace[a]?.index, new: newPlaces[a].index,
                                       unchangedBeforeOld: oldPlace[a]?.unchangedBefore ?? 0, unchangedBeforeNew: newPlaces[a].survivorsBefore)
        }
        return (removed, placed)
    }

    /// The sections as they are now.
    var currentSections: ResultsChangeSet.Sections {
        ResultsChangeSet.Sections(starts: sectionStarts, names: sectionNames, keyed: sectionNameKeyPath != nil)
    }
}
