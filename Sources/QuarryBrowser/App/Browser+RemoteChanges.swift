import Quarry

extension Browser {
    /// What the status line says after another program changed the store behind Quarry's back
    /// (the rows were re-fetched rather than merged).
    static let externalChangeMessage = "external change"

    /// Other processes' commits reach the table through the main context's merge, like the
    /// in-process importer's; one that bypassed Quarry (or outran pruned history) is also said
    /// on the status line.
    func observeRemoteChanges() {
        live.remoteChangeObservation = stack.addRemoteChangeObserver { [weak self] change in
            guard change.isExternal else { return }
            MainActor.assumeIsolated {
                guard let self else { return }
                self.message = (Self.externalChangeMessage, false)
                self.needsDisplay()
            }
        }
    }
}
