import Foundation
import Synchronization

/// A ``ContextOperation`` that runs blocks in the order they were added, all on one
/// ``ContextOperation/threadContext`` (FRCoreDataOperation's block operation).
///
/// Each block returns whether to save: `true` saves the context right after the block (the
/// block's changes, and any left unsaved by earlier blocks); `false` keeps its changes
/// pending for the next blocks. With ``saveAfterExecution`` the context is saved once more
/// after the last block; without it, changes still pending at the end are rolled back and
/// never reach the store. Cancellation is checked before each block; a cancelled operation
/// saves nothing of what is pending. `completionBlock` is left for the caller.
///
/// ```swift
/// let operation = BlockContextOperation(stack: stack)
/// operation.addBlock { context in
///     let sector = try context.insertObject(entityName: "Sector")
///     sector["name"] = .string("Energy")
///     return true   // save now
/// }
/// operation.addBlock { context in /* read what the first block saved */ false }
/// try await operation.run(on: queue)
/// ```
public final class BlockContextOperation: ContextOperation, @unchecked Sendable {
    // `blocks` and `saves` sit in Mutexes: blocks may be added from any thread before start.

    /// A unit of work: changes objects in `context` (on the operation's thread) and returns
    /// whether to save the context afterwards.
    public typealias Block = @Sendable (_ context: ObjectContext) throws -> Bool

    private let blocks = Mutex<[Block]>([])
    private let saveFlag = Mutex(false)

    /// Whether the context is saved after the last block (default `false`).
    public var saveAfterExecution: Bool {
        get { saveFlag.withLock { $0 } }
        set { saveFlag.withLock { $0 = newValue } }
    }

    /// Appends `block`; add every block before the operation starts.
    public func addBlock(_ block: @escaping Block) {
        blocks.withLock { $0.append(block) }
    }

    /// How many blocks have been added.
    public var blockCount: Int { blocks.withLock { $0.count } }

    /// Runs the blocks in order, saving where they ask to.
    override public func execute(in context: ObjectContext) throws {
        for block in blocks.withLock({ $0 }) {
            try checkCancelled()
            if try block(context) { try saveChunk() }
        }
        if saveAfterExecution {
            try saveChunk()
        } else {
            try checkCancelled()
            context.rollback()
        }
    }
}
