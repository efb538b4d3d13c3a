import Foundation
import Testing

/// A generated block of a page under `docs/`: the text between a `<!-- NAME:… -->` line and
/// `<!-- /NAME -->`.
enum DocumentationBlock {
    /// The repository's `docs/` folder (found from this file's path).
    static let docs = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs")

    /// The block `name` of `docs/<page>`.
    static func text(_ name: String, in page: String) throws -> String {
        let text = try String(contentsOf: docs.appendingPathComponent(page), encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- \(name):"), "docs/\(page) has no <!-- \(name): … --> line")
        let start = try #require(text.range(of: "-->\n", range: marker.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "<!-- /\(name) -->", range: start.upperBound..<text.endIndex), "docs/\(page) has no <!-- /\(name) -->")
        return String(text[start.upperBound..<end.lowerBound])
    }
}
