import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A controller whose request has no sort key (an entity with nothing that sorts, issue 16
/// real-world item 8) keeps its results in object-ID order, fetched and live.
@Suite struct FetchedResultsWithoutSortKeyTests {
    @Test(arguments: StoreKind.allCases)
    func resultsAreInObjectIDOrder(kind: StoreKind) throws {
        let context = try TestStore(kind).context()
        try context.performAndWait {
            for symbol in ["C", "A", "B"] { try context.insert(Ticker.self).symbol = symbol }
            try context.save()
            let controller = try FetchedResultsController(fetchRequest: FetchRequest(entityName: "Ticker"), context: context)
            try controller.performFetch()
            func symbols() -> [String] { controller.fetchedObjects.map { ($0 as! Ticker).symbol } }
            #expect(symbols() == ["C", "A", "B"])
            let log = CallLog()
            controller.delegate = log
            try context.insert(Ticker.self).symbol = "D"
            try context.save()
            #expect(symbols() == ["C", "A", "B", "D"])
            // A new object's temporary ID sorts first; its permanent one, given at save, last.
            #expect(log.calls == ["will", "insert - [0, 0]", "did", "will", "move [0, 0] [0, 3]", "did"])
        }
    }

    @Test func sectionsStillNeedTheirKey() throws {
        let context = try TestStore(.memory).context()
        #expect(throws: QueryError.self) {
            try FetchedResultsController(fetchRequest: FetchRequest(entityName: "Ticker"), context: context, sectionNameKeyPath: "symbol")
        }
    }
}
