import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// Issue 34, item 3: decimals keep their scale in the table, the detail page and the edit form,
/// and a form saved unchanged keeps it.
@MainActor
@Suite("Decimal scale on screen")
struct DecimalScaleScreenTests {
    /// A store of two items priced `12.50` and `15.00`, and a browser on it.
    @MainActor
    struct Items {
        let directory = TemporaryDirectory()
        let stack: PersistentStack
        let browser: Browser

        init() throws {
            var builder = ModelBuilder()
            builder.entity("Item") { e in
                e.attribute("name", .string)
                e.attribute("price", .decimal)
            }
            var options = PersistentStack.Options()
            options.storeURL = directory.file("items.sqlite")
            stack = try PersistentStack(model: builder.build(), options: options)
            let importer = stack.importerContext()
            try importer.performAndWait {
                for (name, price) in [("pen", "12.50"), ("pad", "15.00")] {
                    let item = try importer.insertObject(entityName: "Item")
                    try item.setValues(["name": .string(name), "price": .decimal(ScaledDecimal(string: price)!)])
                }
                try importer.save()
            }
            browser = try Browser(stack: stack, configuration: BrowserConfiguration(storeTitle: "items.sqlite", entityName: "Item",
                                                                                    sort: [SortKey("name")]))
        }

        func screen() -> [String] { browser.render(size: TerminalSize(width: 100, height: 20)).lines }
    }

    @Test("the table and the detail page show 12.50 and 15.00")
    func tableAndDetail() throws {
        let f = try Items()
        var screen = f.screen()
        #expect(try #require(screen.first { $0.contains("pen") }).contains("12.50"), "\(screen)")
        #expect(try #require(screen.first { $0.contains("pad") }).contains("15.00"), "\(screen)")
        f.browser.handle(.key(.enter))  // the cursor is on pad (sorted by name)
        screen = f.screen()
        #expect(screen.contains { $0.contains("price") && $0.contains("15.00") }, "\(screen)")
    }

    @Test("the edit form shows 15.00 and saving it unchanged keeps 15.00")
    func formKeepsTheScale() throws {
        let f = try Items()
        let pad = try #require(try f.stack.mainContext.fetch(FetchRequest(entityName: "Item", sortDescriptors: [SortKey("name")])).first)
        let session = try EditSession(stack: f.stack, entityName: "Item", id: pad.objectID)
        #expect(session.fields.first { $0.key == "price" }?.text == "15.00")
        while session.fields[session.focus].key != "name" { _ = session.handle(.tab) }
        _ = session.handle(.character("s"))
        #expect(session.save() != nil)
        let reread = ObjectContext(concurrencyType: .privateQueue, coordinator: f.stack.writerCoordinator)
        let stored = try reread.performAndWait {
            try reread.fetch(FetchRequest(entityName: "Item", sortDescriptors: [SortKey("name")])).first.map { "\(try $0.value(forKey: "price"))" }
        }
        #expect(stored == "15.00")
    }
}
