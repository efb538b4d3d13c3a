import Foundation
import Testing
@testable import QuarryBrowser

/// The browser's keys are one list: the `?` overlay and README's key table are both made from
/// ``KeyHelp/bindings``.
@Suite("Key bindings: one list for the overlay and README")
struct KeyTableTests {
    /// The repository's README (found from this file's path).
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    @Test("README's key table is the one quarry keys prints (regenerate it with `quarry keys`)")
    func readmeTableIsGenerated() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- keys:"))
        let start = try #require(text.range(of: "-->\n", range: marker.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "<!-- /keys -->", range: start.upperBound..<text.endIndex))
        let table = String(text[start.upperBound..<end.lowerBound])
        #expect(table == KeyHelp.markdownTable, "README's key table differs; replace it with:\n\(KeyHelp.markdownTable)")
    }

    @Test("the overlay lists every binding once, under its group's heading, in the list's order")
    func overlayIsMadeFromTheBindings() {
        let rows = KeyHelp.entries.filter { !$0.isHeading }
        #expect(rows.map(\.label) == KeyHelp.bindings.map(\.keys))
        #expect(rows.map(\.value) == KeyHelp.bindings.map(\.summary))
        var groups: [String] = []
        for binding in KeyHelp.bindings where groups.last != binding.group { groups.append(binding.group) }
        #expect(KeyHelp.entries.filter(\.isHeading).map(\.label) == groups)
        #expect(Set(groups).count == groups.count, "each group's bindings are together")
    }
}
