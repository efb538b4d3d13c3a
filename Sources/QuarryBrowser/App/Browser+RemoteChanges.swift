import Quarry

extension Browser {
    /// What the status line says after another program changed the store behind Quarry's back
    /// (the rows were re-fetched rather than merged).
    static let externalChangeMessage = "external change"

    /// Other processes' commits reach the table through the main context's merge, like the
    /// in-process importer's; one that bypassed Quarry (or outran pruned history) is also said
    /// on the status line, and a read on the remote path that failed is shown there as an error.
    func observeRemoteChanges() {
        live.remoteChangeObservation = stack.addRemoteChangeObserver { [weak self] change in
            // A failed read on the remote path (history, data_version, the listener) is an
            // error on the status line, like a fetched-results error; else an outside write.
            guard change.error != nil || change.isExternal else { return }
            MainActor.assumeIsolated {
                guard let self else { return }
                if let error = change.error {
                    self.message = ("remote changes: \(error)", true)
                } else {
                    self.message = (Self.externalChangeMessage, false)
                }
                self.needsDisplay()
            }
        }
    }
}
