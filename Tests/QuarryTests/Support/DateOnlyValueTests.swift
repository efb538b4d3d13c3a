import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Issue 34, item 2: a value written as a date without a time is that calendar date in exports
/// and in the JSON store (the browser's side is in `QuarryBrowserTests`).
@Suite("Date-only values: export and the JSON store")
struct DateOnlyValueTests {
    static let born = CalendarDate(year: 1929, month: 10, day: 21)!

    @Test("a calendar date is kept as its UTC midnight and recognised from it, nothing else is")
    func representation() throws {
        #expect(Self.born.date == Date(timeIntervalSince1970: -1_268_524_800))
        #expect(CalendarDate(exactly: Self.born.date) == Self.born)
        #expect(CalendarDate(parsing: "1929-10-21") == Self.born)
        #expect(CalendarDate(exactly: Self.born.date.addingTimeInterval(1)) == nil)
        #expect(CalendarDate(exactly: Self.born.date.addingTimeInterval(0.25)) == nil)
        #expect(CalendarDate(exactly: Self.born.date.addingTimeInterval(-5 * 3600)) == nil, "New York's midnight is a time")
        for bad in ["1929-10-32", "2023-02-29", "1929-1-21", "1929-10-21 00:00:00", "29-10-21"] {
            #expect(CalendarDate(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("CSV and JSON exports write a date-only value as its date, times as before")
    func exportText() throws {
        #expect(Value.date(Self.born.date).exportText == "1929-10-21")
        #expect(Value.date(Self.born.date.addingTimeInterval(45_000)).exportText == "1929-10-21T12:30:00Z")
        var json: [UInt8] = []
        JSONFormatter.appendValue(.date(Self.born.date), to: &json)
        #expect(String(decoding: json, as: UTF8.self) == "\"1929-10-21\"")
    }

    @Test("an import of a date without a time, exported, is the same text")
    func importThenExport() async throws {
        let directory = TemporaryDirectory()
        var builder = ModelBuilder()
        builder.entity("Author") { e in
            e.attribute("name", .string)
            e.attribute("born", .date)
        }
        var options = PersistentStack.Options()
        options.storeURL = directory.file("authors.sqlite")
        let stack = try PersistentStack(model: builder.build(), options: options)
        let csv = directory.file("authors.csv")
        try Data("name,born\nUrsula,1929-10-21\n".utf8).write(to: csv)
        _ = try ImportOperation(stack: stack, entityName: "Author", fileURL: csv).run()
        let out = directory.file("authors-out.csv")
        try await ExportOperation(stack: stack, entityName: "Author", sortDescriptors: [SortKey("name")], destination: .file(out),
                                  formatter: CSVFormatter()).run(on: OperationQueue())
        #expect(try String(contentsOf: out, encoding: .utf8) == "born,name\r\n1929-10-21,Ursula\r\n")
    }

    @Test("the JSON store writes a date-only value as yyyy-mm-dd and reads it back as the same value")
    func jsonStore() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("authors.jsonstore")
        var builder = ModelBuilder()
        builder.entity("Author") { e in e.attribute("born", .date) }
        let store = try JSONStore(url: url, model: builder.build())
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store))
        try context.performAndWait {
            let author = try context.insertObject(entityName: "Author")
            try author.setValue(.date(Self.born.date), forKey: "born")
            try context.save()
        }
        #expect(try JSONStoreTesting.text(url, "Author.json") == "{\n  \"1\": {\"born\": \"1929-10-21\"}\n}\n")
        let reopened = try JSONStore(url: url)
        let values = try JSONStoreTesting.contents(of: reopened)
        #expect(values == ["Author.1": "born=\(Value.date(Self.born.date))"])
    }
}
