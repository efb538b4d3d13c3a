import Foundation
import Quarry

/// A test's wait for an event ran past its deadline: what was awaited never came (a
/// regression fails the test with this message instead of hanging the run).
public struct WaitDeadlineExceeded: Error, CustomStringConvertible {
    /// What the test waited for.
    public let awaited: String
    /// How long it waited.
    public let deadline: Duration

    public var description: String { "waited \(deadline) for \(awaited); it never came" }
}

/// How long an event wait lasts at most unless a test says otherwise: long enough for a loaded
/// 2-core machine running Thread Sanitizer, short enough that a regression fails the run.
public let defaultEventDeadline = Duration.seconds(180)

/// Runs `body` and returns its value, or throws ``WaitDeadlineExceeded`` naming `awaited` once
/// `deadline` has passed (`body` is then cancelled).
public func withDeadline<T: Sendable>(_ deadline: Duration, awaiting awaited: String,
                                      _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: DeadlineOutcome<T>.self) { group in
        group.addTask { .value(try await body()) }
        group.addTask {
            try? await Task.sleep(for: deadline)
            return .timedOut
        }
        defer { group.cancelAll() }
        guard case .value(let value)? = try await group.next() else {
            throw WaitDeadlineExceeded(awaited: awaited, deadline: deadline)
        }
        return value
    }
}

/// A child's outcome in ``withDeadline(_:awaiting:_:)``: the body's value, or the deadline's passing.
private enum DeadlineOutcome<T: Sendable>: Sendable {
    case value(T)
    case timedOut
}

/// The next element of `stream` (`nil` when it finished), or ``WaitDeadlineExceeded`` naming
/// `awaited` after `deadline`.
public func nextElement<T: Sendable>(of stream: AsyncStream<T>, awaiting awaited: String,
                                     deadline: Duration = defaultEventDeadline) async throws -> T? {
    try await withDeadline(deadline, awaiting: awaited) {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}

/// Runs `save` and waits (without sleeping) for the stack's next smart merge into the main
/// context, returning the merged changes; throws ``WaitDeadlineExceeded`` after `deadline`.
public func nextMerge(of stack: PersistentStack, deadline: Duration = defaultEventDeadline,
                      after save: () throws -> Void) async throws -> SaveChanges {
    try await firstEvent(observing: { stack.addMergeObserver($0) }, awaiting: "the stack's next merge", deadline: deadline, after: save)
}

/// Subscribes with `observe`, runs `action`, and returns the first event delivered, or throws
/// ``WaitDeadlineExceeded`` after `deadline`.
private func firstEvent<Event: Sendable>(observing observe: (@escaping @Sendable (Event) -> Void) -> ObservationToken,
                                         awaiting awaited: String, deadline: Duration,
                                         after action: () throws -> Void) async throws -> Event {
    let (stream, continuation) = AsyncStream<Event>.makeStream()
    let token = observe { continuation.yield($0) }
    defer { token.cancel() }
    try action()
    return try await withDeadline(deadline, awaiting: awaited) {
        var iterator = stream.makeAsyncIterator()
        guard let event = await iterator.next() else { throw CancellationError() }
        return event
    }
}

/// Runs `write` and waits (without sleeping) for the stack's next remote change, merged into
/// its main context on the main queue (another stack's, another process's or an external
/// write's commit, noticed by the stack's store watcher); throws ``WaitDeadlineExceeded``
/// after `deadline`.
public func nextRemoteChange(of stack: PersistentStack, deadline: Duration = defaultEventDeadline,
                             after write: () throws -> Void) async throws -> RemoteChange {
    try await firstEvent(observing: { stack.addRemoteChangeObserver($0) }, awaiting: "the stack's next remote change",
                         deadline: deadline, after: write)
}

/// Waits (without sleeping) for remote changes of `stack` until `done` holds on the main
/// queue after one of them; returns them all. For writers in another process whose commits
/// may arrive in several pieces. Throws ``WaitDeadlineExceeded`` (naming `awaited`) after `deadline`.
public func remoteChanges(of stack: PersistentStack, deadline: Duration = defaultEventDeadline,
                          awaiting awaited: String = "remote changes to reach the main context",
                          after write: () throws -> Void,
                          until done: @escaping @MainActor @Sendable () -> Bool) async throws -> [RemoteChange] {
    let (stream, continuation) = AsyncStream<RemoteChange>.makeStream()
    let token = stack.addRemoteChangeObserver { change in
        continuation.yield(change)
        if MainActor.assumeIsolated(done) { continuation.finish() }
    }
    defer { token.cancel() }
    try write()
    return try await withDeadline(deadline, awaiting: awaited) {
        var seen: [RemoteChange] = []
        for await change in stream { seen.append(change) }
        return seen
    }
}
