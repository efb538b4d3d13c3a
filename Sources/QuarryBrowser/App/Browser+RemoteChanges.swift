import Quarry

extension Browser {
    /// What the status line says after another program changed the store behind Quarry's back
    /// (the rows were re-fetched rather than merged).
    static let externalChangeMessage = "external change"

    /// How the status line begins a failed read on the remote path.
    static let remoteErrorPrefix = "remote changes: "

    /// Other processes' commits reach the table through the main context's merge, like the
    /// in-process importer's; one that bypassed Quarry (or outran pruned history) is also said
    /// on the status line, and a read on the remote path that failed is shown there as an error,
    /// until a key is pressed or a later remote change arrives without one (the path recovered).
    func observeRemoteChanges() {
        live.remoteChangeObservation = stack.addRemoteChangeObserver { [weak self] change in
            MainActor.assumeIsolated {
                guard let self else { return }
                // A failed read on the remote path (history, data_version, the listener) is an
                // error on the status line, like a fetched-results error; else an outside write.
                if let error = change.error {
                    // Not live at all: say how the rows can be brought up to date meanwhile.
                    let hint = if case .notLive = error { " (R re-reads the rows)" } else { "" }
                    self.message = (Self.remoteErrorPrefix + "\(error)" + hint, true)
                } else if change.isExternal {
                    // A follow-up re-fetch of a write already announced says nothing new, and
                    // must not overwrite what was said since (a refused undo, a save).
                    if !change.isFollowUp { self.message = (Self.externalChangeMessage, false) }
                } else if self.showsRemoteError, self.stack.lastRemoteError == nil {
                    // Another connection's commit read again: the path recovered, and the error
                    // no longer holds (a message shown since stays).
                    self.message = nil
                } else {
                    return
                }
                self.needsDisplay()
            }
        }
    }

    /// Whether the status line still shows a failed read on the remote path.
    private var showsRemoteError: Bool {
        guard let message, message.isError else { return false }
        return message.text.hasPrefix(Self.remoteErrorPrefix)
    }
}
