import QuarryTestSupport
import Testing

// README's engine example, verbatim: the lines between the two markers below are the Swift
// block under README's `<!-- engine-example` line, and ReadmeExampleTests checks that they are
// equal (so the README's code always compiles) and runs it.
// readme-example:begin
import Foundation
import Quarry

final class Stock: ManagedObject {                      // a typed class; ManagedObject alone works too
    @Attribute("symbol") var symbol: String
    @Attribute("price") var price: Double
}

/// A model built in Swift (or loaded from JSON, Xcode or .momd files) and a stack on an SQLite file.
func openStocks(at url: URL) throws -> PersistentStack {
    var builder = ModelBuilder()
    builder.entity("Stock") { e in
        e.attribute("symbol", .string, optional: false, indexed: true)
        e.attribute("price", .double, default: .double(0), min: 0)
        e.unique("symbol")
    }
    return try PersistentStack(model: try builder.build(), storeURL: url)
}

/// An importer saves on its own queue; the stack merges each save into the main context.
func importStock(_ symbol: String, price: Double, into stack: PersistentStack) throws {
    let importer = stack.importerContext()
    try importer.performAndWait {
        let stock = try importer.insert(Stock.self)
        stock.symbol = symbol
        stock.price = price
        try importer.save()                             // validated, then one transaction
    }
}

/// A live, sorted fetch on the main context: its delegate hears every row that changes.
@MainActor func liveStocks(in stack: PersistentStack) throws -> FetchedResultsController {
    let request = FetchRequest(entityName: "Stock", predicate: try ObjectPredicate(format: "price > 10"),
                               sortDescriptors: [SortKey("price", ascending: false)])
    let controller = try FetchedResultsController(fetchRequest: request, context: stack.mainContext)
    try controller.performFetch()
    return controller
}
// readme-example:end

@Suite("README's engine example")
struct ReadmeExampleTests {
    /// The repository's README (found from this file's path).
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    @Test("README's Swift example is this file's, line for line")
    func readmeHoldsThisCode() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let marker = try #require(readme.range(of: "<!-- engine-example"), "README has no <!-- engine-example --> line")
        let start = try #require(readme.range(of: "```swift\n", range: marker.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let begin = try #require(source.range(of: "// readme-example:begin\n"))
        let finish = try #require(source.range(of: "// readme-example:end\n", range: begin.upperBound..<source.endIndex))
        let code = String(source[begin.upperBound..<finish.lowerBound])
        #expect(String(readme[start.upperBound..<end.lowerBound]) == code, "README's engine example differs from ReadmeExampleTests.swift's; make them equal")
        #expect(code.split(separator: "\n", omittingEmptySubsequences: false).count - 1 <= 40, "the example is at most 40 lines")
    }

    @Test("the example runs: an importer's save reaches the live fetch on the main context")
    func exampleRuns() async throws {
        let directory = TemporaryDirectory()
        let stack = try openStocks(at: directory.file("stocks.sqlite"))
        let controller = try await MainActor.run { try liveStocks(in: stack) }
        _ = try await nextMerge(of: stack) { try importStock("ACME", price: 12.5, into: stack) }
        _ = try await nextMerge(of: stack) { try importStock("PENNY", price: 0.5, into: stack) }
        await MainActor.run {
            #expect(controller.fetchedObjects.compactMap { ($0 as? Stock)?.symbol } == ["ACME"])
        }
    }
}
