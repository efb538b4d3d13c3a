import Foundation
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// The browser's keys are one list: the `?` overlay, docs/browser.md's key table and the
/// table's dispatcher are all made from ``KeyHelp/bindings``.
@Suite("Key bindings: one list for the overlay and docs/browser.md")
struct KeyTableTests {
    @Test("docs/browser.md's key table is the one quarry keys prints (regenerate it with `quarry keys`)")
    func documentedTableIsGenerated() throws {
        let table = try DocumentationBlock.text("keys", in: "browser.md")
        #expect(table == KeyHelp.markdownTable, "docs/browser.md's key table differs; replace it with:\n\(KeyHelp.markdownTable)")
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

    @Test("every key the table acts on is named by its binding, and no key is bound twice")
    func dispatchIsMadeFromTheBindings() {
        for binding in KeyHelp.bindings {
            let named = Set(binding.keys.split(separator: " ").map(String.init))
            for (key, action) in binding.triggers {
                // A prefix key is named by its commands (`z` by `za`).
                let name = KeyHelp.name(of: key)
                #expect(named.contains(name) || (action == .sectionPrefix && named.contains { $0.hasPrefix(name) }), "\(binding.keys) does not name \(KeyHelp.name(of: key))")
            }
        }
        #expect(KeyHelp.actions.count == KeyHelp.bindings.reduce(0) { $0 + $1.triggers.count })
        // Every action is reachable from some key.
        let reachable = Set(KeyHelp.actions.values)
        for action: TableAction in [.rowDown, .rowUp, .pageDown, .pageUp, .top, .bottom, .nextSection, .previousSection, .columnRight,
                                    .columnLeft, .commandLine, .sectionPrefix, .search, .nextMatch, .previousMatch, .filter, .pickEntity,
                                    .cancel, .sortAscending, .sortDescending, .narrow, .widen, .hide, .showAll, .freeze, .open, .copyCell,
                                    .copyRow, .schema, .history, .edit, .add, .delete, .export, .pause, .redraw, .help, .quit] {
            #expect(reachable.contains(action), "no key for \(action)")
        }
    }
}
