import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) import QuarryBrowser

/// Issue 34, item 5: `quarry stats` shows an entity's own objects and those with its
/// sub-entities, labelled, and the browser's count is the second.
@MainActor
@Suite("Counts with sub-entities: the browser and quarry stats agree")
struct SubentityCountTests {
    @Test("Item (abstract; Book and Film under it): stats says 0 own, 3 with sub-entities; the browser counts 3")
    func browserMatchesStats() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Library.sqlite")
        try CoreDataFixture.library.write(to: url)
        let quarry = try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first")
        let stats = try CommandRunner.run(quarry, ["stats", url.path])
        #expect(stats.status == 0, "\(stats.standardError)")
        let lines = stats.standardOutput.split(separator: "\n").map(String.init)
        let item = try #require(lines.first { $0.hasPrefix("  Item ") }, "\(stats.standardOutput)")
        #expect(item.hasSuffix("  0 own, 3 with sub-entities"), "\(item)")
        let film = try #require(lines.first { $0.hasPrefix("  Film ") })
        #expect(film.hasSuffix("  1"), "an entity without sub-entities keeps its one count: \(film)")

        let browser = try BrowserFixture.readOnlyBrowser(of: url, entityName: "Item", sort: [SortKey("title")])
        let screen = browser.render(size: TerminalSize(width: 100, height: 20)).lines
        #expect(screen.contains { $0.contains("row 1/3") }, "\(screen)")
    }

    @Test("stats --json gives both counts")
    func statsJSON() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Library.sqlite")
        try CoreDataFixture.library.write(to: url)
        let quarry = try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first")
        let stats = try CommandRunner.run(quarry, ["stats", url.path, "--json"])
        #expect(stats.status == 0, "\(stats.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.standardOutput.utf8)) as? [String: Any])
        let entities = try #require(object["entities"] as? [[String: Any]])
        let item = try #require(entities.first { $0["name"] as? String == "Item" })
        #expect(item["count"] as? Int == 0)
        #expect(item["countWithSubentities"] as? Int == 3)
    }
}
