import Foundation
import Quarry
import QuarryDemo
import QuarryTestSupport
import Testing

/// The demo's seed state: a seed that stops part way is told apart from a finished one.
struct DemoSeedTests {
    let directory = TemporaryDirectory()

    struct Killed: Error {}

    func stack() throws -> PersistentStack {
        try PersistentStack(model: DemoModel.make(), storeURL: directory.file("demo.sqlite"))
    }

    @Test func aSeedStoppedPartWayIsReportedAsInterruptedNotReused() throws {
        let stack = try stack()
        #expect(throws: Killed.self) {
            try DemoSeeder(coordinator: stack.writerCoordinator, chunk: 10).seed(rows: 30) { written in
                if written == 20 { throw Killed() }
            }
        }
        #expect(try DemoState.seed(in: stack.writerCoordinator) == .interrupted(written: 20, target: 30))
        // A fresh process sees the same.
        let reopened = try self.stack()
        #expect(try DemoState.seed(in: reopened.writerCoordinator) == .interrupted(written: 20, target: 30))
    }

    @Test func aFinishedSeedIsReportedFinishedWithItsTickers() throws {
        let stack = try stack()
        #expect(try DemoState.seed(in: stack.writerCoordinator) == .absent)
        try DemoSeeder(coordinator: stack.writerCoordinator, chunk: 7).seed(rows: 30)
        #expect(try DemoState.seed(in: stack.writerCoordinator) == .finished(tickers: 30))
    }

    @Test func aSeedOfNoRowsIsFinished() throws {
        let stack = try stack()
        try DemoSeeder(coordinator: stack.writerCoordinator).seed(rows: 0)
        #expect(try DemoState.seed(in: stack.writerCoordinator) == .finished(tickers: 0))
    }

    @Test func tickersWithoutAStateRecordAreReportedUnrecorded() throws {
        let stack = try stack()
        var request = BatchInsertRequest(entityName: "Ticker", attributes: ["symbol"])
        request.append([.string("A")])
        try stack.writerCoordinator.batchInsert(request)
        #expect(try DemoState.seed(in: stack.writerCoordinator) == .unrecorded(tickers: 1))
    }

    @Test func symbolsAreBijectiveBase26() {
        #expect(DemoModel.symbol(0) == "A")
        #expect(DemoModel.symbol(25) == "Z")
        #expect(DemoModel.symbol(26) == "AA")
        #expect(DemoModel.symbol(26 + 26 * 26) == "AAA")
        #expect(Set((0..<2_000).map(DemoModel.symbol)).count == 2_000)
    }
}
