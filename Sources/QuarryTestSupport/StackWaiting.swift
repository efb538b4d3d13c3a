import Quarry

/// Runs `save` and waits (without sleeping) for the stack's next smart merge into the main
/// context, returning the merged changes.
public func nextMerge(of stack: PersistentStack, after save: () throws -> Void) async throws -> SaveChanges {
    try await firstEvent(observing: { stack.addMergeObserver($0) }, after: save)
}

/// Subscribes with `observe`, runs `action`, and returns the first event delivered.
private func firstEvent<Event: Sendable>(observing observe: (@escaping @Sendable (Event) -> Void) -> ObservationToken,
                                         after action: () throws -> Void) async throws -> Event {
    let (stream, continuation) = AsyncStream<Event>.makeStream()
    let token = observe { continuation.yield($0) }
    defer { token.cancel() }
    try action()
    var iterator = stream.makeAsyncIterator()
    guard let event = await iterator.next() else { throw CancellationError() }
    return event
}

/// Runs `write` and waits (without sleeping) for the stack's next remote change, merged into
/// its main context on the main queue (another stack's, another process's or an external
/// write's commit, noticed by the stack's store watcher).
public func nextRemoteChange(of stack: PersistentStack, after write: () throws -> Void) async throws -> RemoteChange {
    try await firstEvent(observing: { stack.addRemoteChangeObserver($0) }, after: write)
}

/// Waits (without sleeping) for remote changes of `stack` until `done` holds on the main
/// queue after one of them; returns them all. For writers in another process whose commits
/// may arrive in several pieces.
public func remoteChanges(of stack: PersistentStack, after write: () throws -> Void,
                          until done: @escaping @MainActor @Sendable () -> Bool) async throws -> [RemoteChange] {
    let (stream, continuation) = AsyncStream<RemoteChange>.makeStream()
    let token = stack.addRemoteChangeObserver { change in
        continuation.yield(change)
        if MainActor.assumeIsolated(done) { continuation.finish() }
    }
    defer { token.cancel() }
    try write()
    var seen: [RemoteChange] = []
    for await change in stream { seen.append(change) }
    return seen
}
