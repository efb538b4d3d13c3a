import Quarry

/// What the browser shows of the live merge and of the writers outside it: whether the merge
/// is paused, the app's hooks that ask for frames and give the importer's status, and the
/// observation of other processes' commits (see ``Browser+LiveState`` and
/// ``Browser+RemoteChanges``). Main actor only, like the browser.
@MainActor
struct LiveState {
    /// Whether the live merge is paused (`p`).
    var isPaused = false
    /// Called when something changed that needs a new frame (``Browser/onNeedsDisplay``).
    var onNeedsDisplay: (@MainActor () -> Void)?
    /// The importer's rate for the right of the status line (``Browser/liveStatus``).
    var status: (@MainActor () -> String?)?
    /// Text the status line must always show (``Browser/liveAlert``).
    var alert: (@MainActor () -> String?)?
    /// Observes other processes' commits merged into the main context.
    var remoteChangeObservation: ObservationToken?
}
