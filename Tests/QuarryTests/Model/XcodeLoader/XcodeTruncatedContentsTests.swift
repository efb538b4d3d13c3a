import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A `contents` file cut short (a copy interrupted, a bad merge) names the file, where it ends
/// and what was expected (issue 16, real-world item 6), not whatever half an element it ends in.
struct XcodeTruncatedContentsTests {
    private func contents() throws -> Data {
        try Data(contentsOf: XcodeFixtures.url("Tickers.xcdatamodel").appendingPathComponent("contents"))
    }

    @Test(arguments: ["attributeType=\"Da", "<attribute name=\"maturity\"", "</entity>"])
    func aFileCutShortSaysWhereItEndsAndWhatWasExpected(cutAfter marker: String) throws {
        let whole = try contents()
        let text = String(decoding: whole, as: UTF8.self)
        let end = try #require(text.range(of: marker)).upperBound
        let cut = Data(text[..<end].utf8)
        let error = #expect(throws: ModelError.self) {
            try ModelDefinition.xcodeContents(cut, path: "Tickers.xcdatamodel/contents")
        }
        guard case .malformedFile(let path, let line, let column, let reason)? = error else {
            Issue.record("expected malformedFile, got \(String(describing: error))")
            return
        }
        let lines = text[..<end].split(separator: "\n", omittingEmptySubsequences: false)
        #expect(path == "Tickers.xcdatamodel/contents")
        #expect(line == lines.count)
        #expect(column == lines.last!.count + 1)
        #expect(reason.contains("expected </model>"), "\(reason)")
        #expect(!reason.contains("unsupported"))
    }

    @Test func theWholeFileStillLoads() throws {
        #expect(try ModelDefinition.xcodeContents(try contents(), path: "Tickers.xcdatamodel/contents").definition.entities.count > 0)
    }
}
