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
