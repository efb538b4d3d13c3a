import Dispatch
import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// ``FetchedResultsController/performFetch(cancellation:previewAround:rows:completion:)``: the
/// rows around one object, where the full results place them, before the full index.
@Suite("Fetched-results controller: a preview around an object")
struct AnchoredPreviewTests {
    /// An SQLite store of `count` sectors named `S0000`, `S0001`, … (a unique name), saved in
    /// another order than their names', and a context over it.
    func seeded(_ count: Int = 3000) throws -> (TestStore, ObjectContext) {
        let store = TestStore(.sqlite)
        let context = try store.context("browse")
        try context.performAndWait {
            // Saved out of order, so that primary-key order is not the name order.
            for i in (0..<count).map({ ($0 * 7919) % count }) {
                let sector = try context.insert(Sector.self)
                sector.name = String(format: "S%04d", i)
            }
            try context.save()
        }
        return (store, context)
    }

    /// The full results of `request`, fetched on the context's queue.
    func fullResults(_ request: Quarry.FetchRequest, in context: ObjectContext) throws -> [ObjectID] {
        try context.performAndWait {
            let controller = try FetchedResultsController(fetchRequest: request, context: context)
            try controller.performFetch()
            return controller.snapshot.items.flatMap { $0 }
        }
    }

    /// Starts the fetch around `anchor` with the index query held (a query of a few thousand
    /// rows: SQLite calls the hook that holds it only every so many steps); returns once the preview is
    /// installed (or not), with the gate and the completion's stream.
    func previewFetch(_ controller: FetchedResultsController, around anchor: ObjectID, rows: Int)
        -> (QueryGate, AsyncStream<Error?>) {
        let gate = QueryGate()
        let cancellation = QueryCancellation { _ in gate.hold() }
        let (done, finished) = AsyncStream<Error?>.makeStream()
        controller.context.performAndWait {
            controller.performFetch(cancellation: cancellation, previewAround: anchor, rows: rows) { finished.yield($0) }
        }
        return (gate, done)
    }

    /// Waits until the index query is held; fails with the fetch's error when it ended instead.
    func held(_ gate: QueryGate, _ done: AsyncStream<Error?>) async throws {
        guard await gate.waitUntilStarted(within: 180) else {
            var iterator = done.makeAsyncIterator()
            Issue.record("the index query never started; the fetch ended with \(String(describing: await iterator.next()))")
            throw CancellationError()
        }
    }

    @Test("ascending and descending: the rows before and from the object, its position and the total, then the full index",
          arguments: [true, false])
    func previewAroundAnObject(ascending: Bool) async throws {
        let (store, context) = try seeded()
        defer { withExtendedLifetime(store) {} }
        let request = Quarry.FetchRequest(entityName: "Sector", sortDescriptors: [SortKey("name", ascending: ascending)])
        let full = try fullResults(request, in: context)
        for position in [1234, 0, 3, full.count - 2] {
            let controller = try context.performAndWait { try FetchedResultsController(fetchRequest: request, context: context) }
            let (gate, done) = previewFetch(controller, around: full[position], rows: 10)
            try await held(gate, done)
            context.performAndWait {
                let start = max(0, position - 10)
                #expect(!controller.isComplete)
                #expect(controller.previewOffset == start, "position \(position)")
                #expect(controller.previewTotal == full.count)
                #expect(controller.snapshot.items.flatMap { $0 } == Array(full[start..<min(full.count, position + 10)]), "position \(position)")
            }
            gate.release()
            let error = try await nextElement(of: done, awaiting: "the full index behind the preview") ?? nil
            #expect(error == nil)
            context.performAndWait {
                #expect(controller.isComplete && controller.previewOffset == 0 && controller.previewTotal == nil)
                #expect(controller.snapshot.items.flatMap { $0 } == full)
            }
        }
    }

    @Test("a filtered request: the position among the filtered rows, no total")
    func filteredRequest() async throws {
        let (store, context) = try seeded()
        defer { withExtendedLifetime(store) {} }
        let request = Quarry.FetchRequest(entityName: "Sector", predicate: try ObjectPredicate(format: "name ENDSWITH '7'"),
                                   sortDescriptors: [SortKey("name")])
        let full = try fullResults(request, in: context)
        let controller = try context.performAndWait { try FetchedResultsController(fetchRequest: request, context: context) }
        let (gate, done) = previewFetch(controller, around: full[100], rows: 5)
        try await held(gate, done)
        context.performAndWait {
            #expect(controller.previewOffset == 95 && controller.previewTotal == nil)
            #expect(controller.snapshot.items.flatMap { $0 } == Array(full[95..<105]))
        }
        gate.release()
        _ = try await nextElement(of: done, awaiting: "the full index behind the preview")
    }

    @Test("an order with ties (a key no constraint makes unique), or an object the filter leaves out, has no preview")
    func noPreviewWithoutAKeyset() async throws {
        let (store, context) = try seeded()
        defer { withExtendedLifetime(store) {} }
        let anchor = try fullResults(Quarry.FetchRequest(entityName: "Sector", sortDescriptors: [SortKey("name")]), in: context)[50]
        let requests = [
            Quarry.FetchRequest(entityName: "Sector", sortDescriptors: [SortKey("name", comparison: .caseInsensitive)]),
            Quarry.FetchRequest(entityName: "Sector", sortDescriptors: [SortKey("name"), SortKey("name")]),
            Quarry.FetchRequest(entityName: "Sector", predicate: try ObjectPredicate(format: "name == 'S0001'"), sortDescriptors: [SortKey("name")]),
        ]
        for request in requests {
            let controller = try context.performAndWait { try FetchedResultsController(fetchRequest: request, context: context) }
            let (gate, done) = previewFetch(controller, around: anchor, rows: 5)
            try await held(gate, done)
            context.performAndWait { #expect(controller.isComplete && controller.count == 0 && controller.previewOffset == 0, "nothing shown before the index") }
            gate.release()
            let error = try await nextElement(of: done, awaiting: "the full fetch") ?? nil
            #expect(error == nil)
            #expect(context.performAndWait { controller.snapshot.items.flatMap { $0 } } == (try fullResults(request, in: context)))
        }
    }

    @Test("a NULL-valued unique key: rows without a value sort first ascending, last descending, in primary-key order",
          arguments: [true, false])
    func rowsWithoutAValue(ascending: Bool) async throws {
        let store = TestStore(.sqlite)
        let writer = try store.context("writer")
        try writer.performAndWait {
            // Enough rows that the index query runs long enough to be held (see QueryGate).
            for i in 0..<3000 {
                let sector = try writer.insert(Sector.self)
                sector.name = String(format: "S%04d", i)
            }
            try writer.save()
        }
        // `Sector.name` is required: a foreign store's NULLs, written behind the model's back.
        try await DatabaseQueue(path: store.url.path).write { try $0.execute(sql: #"UPDATE "Sector" SET "name" = NULL WHERE "Z_PK" % 6 = 0"#) }
        let context = try store.context("browse")
        let request = Quarry.FetchRequest(entityName: "Sector", sortDescriptors: [SortKey("name", ascending: ascending)])
        let full = try fullResults(request, in: context)
        let named = try context.performAndWait { try full.filter { try context.existingObject(with: $0).value(forKey: "name") != .null } }
        for anchor in [named[0], named[3], named[named.count - 1]] {
            let position = try #require(full.firstIndex(of: anchor))
            let controller = try context.performAndWait { try FetchedResultsController(fetchRequest: request, context: context) }
            let (gate, done) = previewFetch(controller, around: anchor, rows: 4)
            try await held(gate, done)
            context.performAndWait {
                let start = max(0, position - 4)
                #expect(controller.previewOffset == start)
                #expect(controller.snapshot.items.flatMap { $0 } == Array(full[start..<min(full.count, position + 4)]), "anchor at \(position)")
            }
            gate.release()
            _ = try await nextElement(of: done, awaiting: "the full index behind the preview")
        }
    }
}
