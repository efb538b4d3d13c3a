import Quarry

/// What tests change in a ``Browser`` to make timing deterministic: reach it with
/// `@_spi(Testing) import QuarryBrowser` and ``Browser/testHooks``.
///
/// ```swift
/// browser.testHooks.makeCancellation = { QueryCancellation { _ in gate.hold() } }
/// ```
@_spi(Testing)
@MainActor
public struct TestHooks {
    /// Makes the token of each fetch (tests hand in tokens that hold the query open).
    public var makeCancellation: () -> QueryCancellation = { QueryCancellation() }
    /// How long a row changed by the live merge stays highlighted, in seconds (tests make it
    /// long, so a slow machine never sees one expire mid-test).
    public var highlightDuration = 1.0
}
