import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// An entity whose attributes are all Binary or Transformable (issue 16, real-world item 8):
/// nothing of it sorts, so the browser shows it in object-ID order instead of refusing it.
@MainActor
@Suite struct UnsortableEntityTests {
    let directory = TemporaryDirectory()

    /// A store with three `Blob`s (sizes 1, 2, 3 bytes, saved in that order) and one `Note`.
    private func makeStack() throws -> PersistentStack {
        var builder = ModelBuilder()
        builder.entity("Blob") { e in
            e.attribute("payload", .binary)
            e.attribute("meta", .transformable)
        }
        builder.entity("Note") { $0.attribute("title", .string) }
        let stack = try PersistentStack(model: builder.build(), storeURL: directory.file("blobs.sqlite"))
        let importer = stack.importerContext()
        try importer.performAndWait {
            for n in 1...3 {
                try importer.insertObject(entityName: "Blob").setValues([
                    "payload": .data(Data(repeating: UInt8(n), count: n)), "meta": .json(.string("m\(n)"))])
            }
            try importer.insertObject(entityName: "Note").setValue(.string("hello"), forKey: "title")
            try importer.save()
        }
        return stack
    }

    /// The screen's lines showing a blob (its payload column reads `<n> bytes`).
    private func blobRows(_ browser: Browser) -> [String] {
        browser.render(size: TerminalSize(width: 100, height: 20)).lines.filter { $0.contains(" byte") }
    }

    @Test func itOpensSortedByObjectID() throws {
        let stack = try makeStack()
        let entity = try #require(stack.model.entity(named: "Blob"))
        #expect(BrowserConfiguration.defaultSort(for: entity).isEmpty)
        let browser = try Browser(stack: stack, configuration: BrowserConfiguration(
            storeTitle: "blobs.sqlite", entityName: "Blob", sort: BrowserConfiguration.defaultSort(for: entity)))
        let lines = browser.render(size: TerminalSize(width: 100, height: 20)).lines
        #expect(lines[0].contains("Blob · sort object ID"))
        let rows = blobRows(browser)
        #expect(rows.count == 3)
        #expect(zip(rows, ["1 byte ", "2 bytes ", "3 bytes "]).allSatisfy { $0.contains($1) })
        #expect(zip(rows, ["m1", "m2", "m3"]).allSatisfy { $0.contains($1) })
        #expect(browser.rowCount == 3)
    }

    @Test func thePickerSwitchesToIt() async throws {
        let stack = try makeStack()
        let browser = try Browser(stack: stack, configuration: BrowserConfiguration(
            storeTitle: "blobs.sqlite", entityName: "Note", sort: [SortKey("title")]))
        _ = browser.render(size: TerminalSize(width: 100, height: 20))
        // The picker lists Blob before Note: Tab opens it on Note, ↑ moves up to Blob.
        browser.handle(.key(.tab))
        browser.handle(.key(.up))
        browser.handle(.key(.enter))
        await browser.fetchesSettled()
        #expect(browser.table.entity.name == "Blob")
        #expect(blobRows(browser).count == 3)
        #expect(!browser.render(size: TerminalSize(width: 100, height: 20)).lines.joined().contains("no attribute to sort by"))
    }
}
