import Quarry

/// A query running off the main queue for the table (a filter, a sort, another entity).
@MainActor
struct PendingFetch {
    /// What the status line says meanwhile ("filtering").
    var label: String
    /// Cancels it (Esc, Ctrl-C, quitting, or a newer query).
    var cancellation: QueryCancellation
}

/// The browser's queries in flight and the keys waiting for them (see ``Browser+Fetching`` and
/// ``Browser+FullIndex``). Main actor only, like the browser.
@MainActor
struct FetchState {
    /// The query running off the main queue, if any.
    var pending: PendingFetch?
    /// Actions of keys that act on the row under the cursor (Enter, `e`, `d`, `y`, `Y`), typed
    /// while a query is about to replace the rows: they act on the new rows once it lands.
    var waitingForFetch: [@MainActor () -> Void] = []
    /// Callers of ``Browser/fetchesSettled()`` waiting for it to end.
    let fetchWaiters = SettleWaiters()
    /// Actions of keys that need the full index (`G`, `[`, `]`, `n`, `N`, a search), waiting
    /// for it while the table shows a preview.
    var waitingForIndex: [@MainActor () -> Void] = []
    /// Callers of ``Browser/fullIndexSettled()`` waiting for the full index.
    let indexWaiters = SettleWaiters()
}
