import Quarry

/// Runs `save` and waits (without sleeping) for the stack's next smart merge into the main
/// context, returning the merged changes.
public func nextMerge(of stack: PersistentStack, after save: () throws -> Void) async throws -> SaveChanges {
    let (stream, continuation) = AsyncStream<SaveChanges>.makeStream()
    let token = stack.addMergeObserver { continuation.yield($0) }
    defer { token.cancel() }
    try save()
    var iterator = stream.makeAsyncIterator()
    guard let changes = await iterator.next() else { throw CancellationError() }
    return changes
}

/// Runs `write` and waits (without sleeping) for the stack's next remote change, merged into
/// its main context on the main queue (another stack's, another process's or an external
/// write's commit, noticed by the stack's store watcher).
public func nextRemoteChange(of stack: PersistentStack, after write: () throws -> Void) async throws -> RemoteChange {
    let (stream, continuation) = AsyncStream<RemoteChange>.makeStream()
    let token = stack.addRemoteChangeObserver { continuation.yield($0) }
    defer { token.cancel() }
    try write()
    var iterator = stream.makeAsyncIterator()
    guard let change = await iterator.next() else { throw CancellationError() }
    return change
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
