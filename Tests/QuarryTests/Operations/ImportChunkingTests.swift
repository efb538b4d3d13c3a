import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Import: chunks, progress and cancellation")
struct ImportChunkingTests {
    func csv(rows: Int) -> String {
        "name,employees\n" + (0..<rows).map { "C\($0),\($0 % 1000)\n" }.joined()
    }

    @Test("each chunk is one save that reaches the store and is visible to another context")
    func chunksAreSaved() throws {
        let f = try ImportFixture()
        let saves = Mutex<[Int]>([])
        let writerID = f.stack.writerCoordinator.identifier
        let observer = NotificationCenter.default.addObserver(forName: ObjectContext.didSaveNotification, object: nil, queue: nil) { n in
            guard let event = n.didSaveEvent, event.reachedStore, event.coordinatorID == writerID else { return }
            saves.withLock { $0.append(event.changes.inserted.count) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let progress = Mutex<[ImportProgress]>([])
        let result = f.importText(csv(rows: 25), options: .init(chunkSize: 10)) { p in progress.withLock { $0.append(p) } }
        #expect(result.summary == ImportSummary(rowsValidated: 25, rowsImported: 25, chunksSaved: 3, destinationsCreated: 0, wasCancelled: false))
        #expect(saves.withLock { $0 } == [10, 10, 5])
        #expect(progress.withLock { $0.filter { $0.phase == .inserting }.map(\.rowsDone) } == [10, 20, 25])
        #expect(progress.withLock { $0.filter { $0.phase == .inserting }.allSatisfy { $0.totalRows == 25 } })
        #expect(progress.withLock { $0.filter { $0.phase == .validating }.map(\.rowsDone) } == [10, 20])
        #expect(try f.count() == 25)
    }

    @Test("cancelling keeps the whole chunks saved and saves nothing of the chunk under way")
    func cancellation() throws {
        let f = try ImportFixture()
        let url = f.write(csv(rows: 50), to: "data.csv")
        let box = Mutex<ImportOperation?>(nil)
        let op = ImportOperation(stack: f.stack, entityName: "Company", fileURL: url, options: .init(chunkSize: 10)) { p in
            // Cancel once the second chunk is saved: the third is under way when it is noticed.
            if p.phase == .inserting && p.rowsDone == 20 { box.withLock { $0?.cancel() } }
        }
        box.withLock { $0 = op }
        let queue = OperationQueue()
        queue.addOperation(op)
        queue.waitUntilAllOperationsAreFinished()
        box.withLock { $0 = nil }
        #expect(op.result?.summary?.wasCancelled == true)
        #expect(op.result?.summary?.rowsImported == 20)
        #expect(try f.count() == 20)
    }

    @Test("cancelled before it starts, an operation imports nothing")
    func cancelledEarly() throws {
        let f = try ImportFixture()
        let op = ImportOperation(stack: f.stack, entityName: "Company", fileURL: f.write(csv(rows: 5), to: "data.csv"))
        op.cancel()
        let queue = OperationQueue()
        queue.addOperation(op)
        queue.waitUntilAllOperationsAreFinished()
        #expect(try f.count() == 0)
    }

    @Test("the main context's smart merge announces every imported chunk")
    func mainContextSeesInserts() async throws {
        let f = try ImportFixture()
        let url = f.write(csv(rows: 30), to: "data.csv")
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let token = f.stack.addMergeObserver { continuation.yield($0.inserted.count) }
        defer { token.cancel() }
        let op = ImportOperation(stack: f.stack, entityName: "Company", fileURL: url, options: .init(chunkSize: 10))
        let summary = try await Task.detached { try op.run() }.value
        #expect(summary.chunksSaved == 3)
        let merged = try await withDeadline(defaultEventDeadline, awaiting: "30 imported rows merged into the main context") {
            var merged = 0
            for await count in stream {
                merged += count
                if merged >= 30 { break }
            }
            return merged
        }
        #expect(merged == 30)
        let mainCount = try await MainActor.run { try f.stack.mainContext.count(ofEntity: "Company") }
        #expect(mainCount == 30)
    }
}
