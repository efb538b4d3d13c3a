import Foundation
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// The browser's `:` commands are one list: docs/browser.md's command table is made from
/// ``BrowserCommandHelp/entries``, and the parser knows exactly those commands.
@Suite("The : commands: one list for docs/browser.md and the parser")
struct CommandTableTests {
    @Test("docs/browser.md's command table is the one BrowserCommandHelp makes")
    func documentedTableIsGenerated() throws {
        let table = try DocumentationBlock.text("commands", in: "browser.md")
        #expect(table == BrowserCommandHelp.markdownTable, "docs/browser.md's command table differs; replace it with:\n\(BrowserCommandHelp.markdownTable)")
    }

    @Test("the list names every command the parser knows, and each example parses as its command")
    func listMatchesTheParser() throws {
        #expect(Set(BrowserCommandHelp.entries.compactMap(\.name)) == Set(BrowserCommand.names))
        for entry in BrowserCommandHelp.entries {
            let parsed = try BrowserCommand.parse(entry.example)
            for alias in entry.aliases {
                let spelled = try BrowserCommand.parse(entry.example.replacingOccurrences(of: entry.name ?? "", with: alias, options: .anchored))
                #expect(spelled == parsed, ":\(alias) is :\(entry.name ?? "")")
            }
            switch (entry.name, parsed) {
            case (nil, .jump), ("q", .quit), ("w", .write), ("sort", .sort), ("filter", .filter), ("entity", .entity), ("theme", .theme),
                 ("col", .column), ("follow", .follow), ("select", .select), ("unselect", .unselect), ("set", .set), ("since", .since),
                 ("freq", .frequency), ("summary", .summary):
                break
            default:
                Issue.record(":\(entry.example) parsed as \(parsed), not as :\(entry.name ?? "NUMBER")")
            }
        }
    }
}
