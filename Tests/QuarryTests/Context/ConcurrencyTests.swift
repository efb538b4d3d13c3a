import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Context queues")
struct ConcurrencyTests {
    @Test("performAndWait runs on the private queue and re-enters without deadlock")
    func performAndWait() throws {
        let context = try TestStore(.memory).context()
        let onQueue = context.performAndWait { context.performAndWait { context.isOnQueue } }
        #expect(onQueue)
        #expect(!context.isOnQueue)
    }

    @Test("async perform returns the block's value")
    func asyncPerform() async throws {
        let context = try TestStore(.memory).context()
        let id = try await context.perform { () -> ObjectID in
            let t = try context.insert(Ticker.self); t.symbol = "A"
            try context.save()
            return t.objectID
        }
        #expect(!id.isTemporary)
    }

    @Test("a main-queue context runs on the main queue")
    func mainQueue() async throws {
        let store = TestStore(.memory)
        let main = ObjectContext(concurrencyType: .mainQueue, coordinator: try store.coordinator(), name: "main")
        let count = try await main.perform { () -> Int in
            #expect(main.isOnQueue)
            let t = try main.insert(Ticker.self); t.symbol = "A"
            try main.save()
            return try main.count(ofEntity: "Ticker")
        }
        #expect(count == 1)
    }

    @Test("concurrent contexts on two coordinators save without losing rows", arguments: StoreKind.allCases)
    func concurrentSaves(kind: StoreKind) throws {
        let store = TestStore(kind)
        let contexts = try (0..<4).map { try store.context("w\($0)") }
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            let c = contexts[i]
            c.performAndWait {
                for j in 0..<25 { let t = try! c.insert(Ticker.self); t.symbol = "T\(i)X\(j)" }
                try! c.save()
            }
        }
        let reader = try store.context("reader")
        #expect(try reader.performAndWait { try reader.count(ofEntity: "Ticker") } == 100)
    }

    @Test("QUARRY_CONCURRENCY_DEBUG traps access from the wrong queue")
    func debugTrap() async {
        await #expect(processExitsWith: .failure) {
            setenv("QUARRY_CONCURRENCY_DEBUG", "1", 1)
            let context = ObjectContext(concurrencyType: .privateQueue, coordinator: TestStores.memory(), name: "trap")
            _ = try? context.insertObject(entityName: "Ticker")  // not inside perform: traps
        }
    }
}
