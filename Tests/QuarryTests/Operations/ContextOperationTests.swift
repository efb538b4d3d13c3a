import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

/// The order operations ran in.
final class RunLog: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ label: String) { entries.withLock { $0.append(label) } }
    var all: [String] { entries.withLock { $0 } }
}

/// Appends `label` to a shared log when it runs (on the operation's thread).
final class RecordingOperation: ContextOperation, @unchecked Sendable {
    // `label` and `log` are immutable (the log locks itself).
    let label: String
    let log: RunLog
    init(stack: PersistentStack, label: String, log: RunLog) {
        self.label = label
        self.log = log
        super.init(stack: stack)
    }
    override func execute(in context: ObjectContext) throws {
        log.append(label)
    }
}

/// Saves one sector per chunk; cancels itself after `cancelAfter` chunks, with the next
/// chunk's sector inserted but not saved.
final class SectorChunksOperation: ContextOperation, @unchecked Sendable {
    // Immutable configuration.
    let names: [String]
    let cancelAfter: Int
    init(stack: PersistentStack, names: [String], cancelAfter: Int) {
        self.names = names
        self.cancelAfter = cancelAfter
        super.init(stack: stack)
    }
    override func execute(in context: ObjectContext) throws {
        for (i, name) in names.enumerated() {
            try checkCancelled()
            let sector = try context.insertObject(entityName: "Sector")
            sector["name"] = .string(name)
            if i == cancelAfter { cancel() }
            try saveChunk()
        }
    }
}

/// Fails with `error` after inserting an unsaved sector.
final class FailingOperation: ContextOperation, @unchecked Sendable {
    struct Failure: Error, Equatable {}
    override func execute(in context: ObjectContext) throws {
        _ = try context.insertObject(entityName: "Sector")
        throw Failure()
    }
}

func makeOperationStack(_ directory: TemporaryDirectory) throws -> PersistentStack {
    try PersistentStack(model: TestModels.tickers(), storeURL: directory.file("operations.sqlite"))
}

func sectorNames(in stack: PersistentStack) throws -> [String] {
    let context = stack.importerContext()
    return try context.performAndWait {
        try context.fetch(FetchRequest(entityName: "Sector", sortDescriptors: [SortKey("name")])).map { $0["name"].exportText }
    }
}

@Suite("Context operations: thread context, cancellation, dependencies, priorities, async")
struct ContextOperationTests {
    @Test("the thread context is a private-queue context on the writer coordinator, made when the operation starts")
    func threadContext() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let operation = RecordingOperation(stack: stack, label: "a", log: RunLog())
        #expect(operation.threadContext == nil)
        try await operation.run(on: OperationQueue())
        let context = try #require(operation.threadContext)
        #expect(context.concurrencyType == .privateQueue)
        #expect(context.coordinator === stack.writerCoordinator)
        #expect(context.mergePolicy == .mergeByPropertyObjectTrump)
    }

    @Test("an operation runs after the operations it depends on")
    func dependencies() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let log = RunLog()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        let first = RecordingOperation(stack: stack, label: "first", log: log)
        let second = RecordingOperation(stack: stack, label: "second", log: log)
        let third = RecordingOperation(stack: stack, label: "third", log: log)
        third.addDependency(second)
        second.addDependency(first)
        queue.addOperation(third)
        queue.addOperation(second)
        queue.addOperation(first)
        try await third.completion()
        #expect(log.all == ["first", "second", "third"])
    }

    @Test("on a serial queue, higher queue priorities start first")
    func priorities() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let log = RunLog()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let low = RecordingOperation(stack: stack, label: "low", log: log)
        low.queuePriority = .veryLow
        let normal = RecordingOperation(stack: stack, label: "normal", log: log)
        let high = RecordingOperation(stack: stack, label: "high", log: log)
        high.queuePriority = .veryHigh
        for operation in [low, normal, high] { queue.addOperation(operation) }
        queue.isSuspended = false
        for operation in [low, normal, high] { try await operation.completion() }
        #expect(log.all == ["high", "normal", "low"])
    }

    @Test("a cancelled operation keeps the chunks it saved and rolls back the current one")
    func cancellationRollsBackCurrentChunk() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let operation = SectorChunksOperation(stack: stack, names: ["A", "B", "C", "D"], cancelAfter: 2)
        await #expect(throws: ContextOperationError.cancelled(operation: "SectorChunksOperation")) {
            try await operation.run(on: OperationQueue())
        }
        #expect(try sectorNames(in: stack) == ["A", "B"])
        #expect(operation.threadContext.map { c in c.performAndWait { c.hasChanges } } == false)
    }

    @Test("an operation cancelled before it starts does nothing and reports the cancellation")
    func cancelledBeforeStart() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let log = RunLog()
        let operation = RecordingOperation(stack: stack, label: "never", log: log)
        operation.cancel()
        await #expect(throws: ContextOperationError.self) { try await operation.run(on: OperationQueue()) }
        #expect(log.all.isEmpty)
    }

    @Test("run(on:) rethrows the operation's error and the unsaved change never reaches the store")
    func asyncBridgeRethrows() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let operation = FailingOperation(stack: stack)
        await #expect(throws: FailingOperation.Failure()) { try await operation.run(on: OperationQueue()) }
        #expect(operation.error is FailingOperation.Failure)
        #expect(try sectorNames(in: stack).isEmpty)
    }

    @Test("completion() waits for an operation started elsewhere, even one that already finished")
    func completionAfterFinish() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let log = RunLog()
        let operation = RecordingOperation(stack: stack, label: "sync", log: log)
        operation.start()
        try await operation.completion()
        #expect(operation.isFinished)
        #expect(log.all == ["sync"])
    }

    @Test("cancelling the awaiting task cancels the operation")
    func taskCancellationCancelsOperation() async throws {
        let directory = TemporaryDirectory()
        let stack = try makeOperationStack(directory)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let operation = BlockContextOperation(stack: stack)
        operation.addBlock { _ in started.signal(); release.wait(); return false }
        operation.addBlock { context in
            _ = try context.insertObject(entityName: "Sector")
            return true
        }
        let task = Task { try await operation.run(on: OperationQueue()) }
        try await withDeadline(defaultEventDeadline, awaiting: "the operation's first block to start") {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async { started.wait(); c.resume() }
            }
        }
        task.cancel()
        // Task cancellation runs the handler synchronously: the operation is cancelled now.
        #expect(operation.isCancelled)
        release.signal()
        await #expect(throws: ContextOperationError.self) { try await task.value }
        #expect(try sectorNames(in: stack).isEmpty)
    }
}
