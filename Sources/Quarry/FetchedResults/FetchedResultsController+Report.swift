extension FetchedResultsController {
    /// Tells the delegate what one change event did, in Core Data's order: a snapshot delegate
    /// gets the new state; any other delegate gets will-change, the section changes, the object
    /// changes and did-change.
    func report(_ changes: ResultsChangeSet) {
        guard let delegate else { return }
        if let snapshotDelegate = delegate as? FetchedResultsSnapshotDelegate {
            var state = snapshot
            state.reloaded = changes.updatedIDs
            snapshotDelegate.controller(self, didChangeContentWith: state)
            return
        }
        delegate.controllerWillChangeContent(self)
        let current = changes.sections.contains { $0.type == .insert } ? sections : []
        for change in changes.sections {
            let section = change.type == .insert ? current[change.index]
                : SectionInfo(name: change.name, indexTitle: SectionInfo.indexTitle(for: change.name), numberOfObjects: 0)
            delegate.controller(self, didChangeSection: section, atSectionIndex: change.index, for: change.type)
        }
        for change in changes.objects {
            delegate.controller(self, didChangeObject: change.id, at: change.from, for: change.type, newIndexPath: change.to)
        }
        delegate.controllerDidChangeContent(self)
    }

    /// Records `error` as ``lastError`` and tells the delegate.
    func report(_ error: FetchedResultsError) {
        lastError = error
        delegate?.controller(self, didFailWith: error)
    }
}
