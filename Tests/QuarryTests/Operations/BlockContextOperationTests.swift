import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Block context operation: blocks in order on one context, save or not")
struct BlockContextOperationTests {
    @Test("blocks run in order on one shared context; a block returning true saves what is pending")
    func blocksShareOneContext() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let operation = BlockContextOperation(stack: stack)
        let seen = Mutex<[Int]>([])
        let contexts = Mutex<[ObjectIdentifier]>([])
        operation.addBlock { context in
            contexts.withLock { $0.append(ObjectIdentifier(context)) }
            let sector = try context.insertObject(entityName: "Sector")
            sector["name"] = .string("Energy")
            return false
        }
        operation.addBlock { context in
            contexts.withLock { $0.append(ObjectIdentifier(context)) }
            seen.withLock { $0.append(context.inserted.count) }
            return true
        }
        #expect(operation.blockCount == 2)
        try await operation.run(on: OperationQueue())
        #expect(seen.withLock { $0 } == [1])
        #expect(Set(contexts.withLock { $0 }).count == 1)
        #expect(try sectorNames(in: stack) == ["Energy"])
    }

    @Test("changes of blocks that return false are rolled back at the end")
    func falseSavesNothing() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let operation = BlockContextOperation(stack: stack)
        operation.addBlock { context in
            try context.insertObject(entityName: "Sector")["name"] = .string("Kept")
            return true
        }
        operation.addBlock { context in
            try context.insertObject(entityName: "Sector")["name"] = .string("Dropped")
            return false
        }
        try await operation.run(on: OperationQueue())
        #expect(try sectorNames(in: stack) == ["Kept"])
    }

    @Test("saveAfterExecution saves what the blocks left pending")
    func saveAfterExecution() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let operation = BlockContextOperation(stack: stack)
        operation.saveAfterExecution = true
        operation.addBlock { context in
            try context.insertObject(entityName: "Sector")["name"] = .string("Late")
            return false
        }
        try await operation.run(on: OperationQueue())
        #expect(try sectorNames(in: stack) == ["Late"])
    }

    @Test("completionBlock stays the caller's and runs after the blocks")
    func completionBlockIsFree() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let operation = BlockContextOperation(stack: stack)
        let ran = Mutex<[String]>([])
        operation.addBlock { _ in ran.withLock { $0.append("block") }; return false }
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        operation.completionBlock = {
            ran.withLock { $0.append("completion") }
            continuation.yield()
        }
        OperationQueue().addOperation(operation)
        _ = try await nextElement(of: stream, awaiting: "the operation's completion block")
        #expect(ran.withLock { $0 } == ["block", "completion"])
    }

    @Test("a block operation cancelled between blocks saves nothing pending and skips later blocks")
    func cancelBetweenBlocks() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let operation = BlockContextOperation(stack: stack)
        operation.saveAfterExecution = true
        let later = Mutex(false)
        operation.addBlock { [unowned operation] context in
            try context.insertObject(entityName: "Sector")["name"] = .string("Pending")
            operation.cancel()
            return false
        }
        operation.addBlock { _ in later.withLock { $0 = true }; return true }
        await #expect(throws: ContextOperationError.self) { try await operation.run(on: OperationQueue()) }
        #expect(later.withLock { $0 } == false)
        #expect(try sectorNames(in: stack).isEmpty)
    }
}
