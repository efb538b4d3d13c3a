import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// Issue 34, item 2: a date written without a time is that calendar date in every time zone,
/// with no ` 00:00:00`, in the table, the detail page and the edit form, and stays date-only
/// when the form saves it.
@MainActor
@Suite("Date-only values on screen")
struct DateOnlyScreenTests {
    nonisolated static let born = CalendarDate(year: 1929, month: 10, day: 21)!
    nonisolated static let zones = ["UTC", "America/New_York", "Asia/Tokyo"]

    @Test("shown as its calendar date in every zone", arguments: zones)
    func shownAsTheDateInEveryZone(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        #expect(ValueText.formatDate(Self.born.date, in: zone) == "1929-10-21")
        // A time keeps its time, in the zone.
        let noonUTC = Self.born.date.addingTimeInterval(12 * 3600)
        #expect(ValueText.formatDate(noonUTC, in: zone).hasSuffix(":00:00"))
    }

    @Test("typed without a time, it is that calendar date in every zone", arguments: zones)
    func typedAsTheDateInEveryZone(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        #expect(ValueText.parseDate("1929-10-21", in: zone) == Self.born.date)
        #expect(ValueText.parseDate("1929-10-21 10:30", in: zone).map { ValueText.formatDate($0, in: zone) } == "1929-10-21 10:30:00")
    }

    /// A store of one author born on a date-only value, and a browser on it.
    @MainActor
    struct Authors {
        let directory = TemporaryDirectory()
        let stack: PersistentStack
        let browser: Browser

        init() throws {
            var builder = ModelBuilder()
            builder.entity("Author") { e in
                e.attribute("name", .string)
                e.attribute("born", .date)
            }
            var options = PersistentStack.Options()
            options.storeURL = directory.file("authors.sqlite")
            stack = try PersistentStack(model: builder.build(), options: options)
            let importer = stack.importerContext()
            try importer.performAndWait {
                let author = try importer.insertObject(entityName: "Author")
                try author.setValues(["name": .string("Ursula"), "born": .date(DateOnlyScreenTests.born.date)])
                try importer.save()
            }
            browser = try Browser(stack: stack, configuration: BrowserConfiguration(storeTitle: "authors.sqlite", entityName: "Author",
                                                                                    sort: [SortKey("name")]))
        }

        func screen() -> [String] { browser.render(size: TerminalSize(width: 100, height: 20)).lines }
    }

    @Test("the table and the detail page show 1929-10-21, without a time")
    func tableAndDetail() throws {
        let f = try Authors()
        var screen = f.screen()
        let row = try #require(screen.first { $0.contains("Ursula") }, "\(screen)")
        #expect(row.contains("1929-10-21"), "\(row)")
        #expect(!screen.joined().contains("00:00:00"), "\(screen)")
        f.browser.handle(.key(.enter))
        screen = f.screen()
        let born = try #require(screen.first { $0.contains("│ born") }, "\(screen)")
        #expect(born.contains("1929-10-21") && !born.contains("00:00"), "\(born)")
    }

    @Test("the edit form shows 1929-10-21 and saving keeps the same date-only value")
    func formKeepsItDateOnly() throws {
        let f = try Authors()
        let author = try #require(try f.stack.mainContext.fetch(FetchRequest(entityName: "Author")).first)
        let session = try EditSession(stack: f.stack, entityName: "Author", id: author.objectID)
        let field = try #require(session.fields.first { $0.key == "born" })
        #expect(field.text == "1929-10-21")
        var buffer = ScreenBuffer(size: TerminalSize(width: 100, height: 20))
        session.view().render(into: &buffer, area: buffer.bounds, theme: f.browser.theme)
        #expect(buffer.lines.contains { $0.contains("1929-10-21") } && !buffer.lines.joined().contains("00:00:00"))
        // Change the name only: the date goes back as it came.
        while session.fields[session.focus].key != "name" { _ = session.handle(.tab) }
        for character in " K." { _ = session.handle(.character(character)) }
        #expect(session.save() != nil)
        let reread = ObjectContext(concurrencyType: .privateQueue, coordinator: f.stack.writerCoordinator)
        let stored = try reread.performAndWait {
            try reread.fetch(FetchRequest(entityName: "Author")).first?.value(forKey: "born")
        }
        #expect(stored == .date(Self.born.date))
    }
}
