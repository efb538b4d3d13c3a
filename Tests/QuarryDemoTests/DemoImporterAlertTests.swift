import Foundation
import GRDB
import Quarry
import QuarryDemo
import QuarryTestSupport
import Testing

/// The importer tells its alert's observers when the alert changes, so a browser can redraw
/// without waiting for a key (issue 34, item 24).
struct DemoImporterAlertTests {
    let directory = TemporaryDirectory()

    @Test func observersHearThePauseOnABusyStoreAndTheResume() async throws {
        var options = PersistentStack.Options()
        options.storeURL = directory.file("demo.sqlite")
        options.busyTimeout = 0.05
        let stack = try PersistentStack(model: DemoModel.make(), options: options)
        try DemoSeeder(coordinator: stack.writerCoordinator).seed(rows: 20)
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true  // the lock outlives one database access
        let other = try DatabaseQueue(path: directory.file("demo.sqlite").path, configuration: configuration)
        try other.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }

        let importer = DemoImporter(stack: stack, rate: 2_000, tick: 0.01)
        let (alerts, continuation) = AsyncStream.makeStream(of: String?.self)
        importer.observeAlert { [weak importer] in continuation.yield(importer?.alertText) }
        importer.start()
        defer { importer.stop() }

        // Each change once: paused, then (the lock released) resumed.
        let seen = try await withThrowingTaskGroup(of: [String?]?.self) { group in
            group.addTask {
                var seen: [String?] = []
                for await alert in alerts {
                    seen.append(alert)
                    if alert != nil { try other.inDatabase { try $0.execute(sql: "COMMIT") } }
                    if seen.count == 2 { return seen }
                }
                return seen
            }
            group.addTask {
                try await Task.sleep(for: .seconds(60))  // the deadline, not the wait
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        let alertsSeen = try #require(seen, "the importer did not report a pause and a resume within 60 s")
        #expect(alertsSeen == ["import paused: store busy", nil])
    }
}
