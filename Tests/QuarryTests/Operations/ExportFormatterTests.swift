import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Runs `formatter` over `objects` (header, each object, footer) and returns the text.
func formatted<F: EntityFormatter>(_ formatter: F, _ objects: [ManagedObject]) throws -> String {
    var formatter = formatter
    guard let first = objects.first, let context = first.managedObjectContext else { return "" }
    try formatter.prepare(for: first.entity, model: context.model)
    var bytes: [UInt8] = []
    formatter.header(into: &bytes)
    for object in objects { try formatter.format(object, into: &bytes) }
    formatter.footer(into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

/// A context holding two sectors, three tags and three tickers (one with no sector, no name).
func tickerFixture() throws -> (ObjectContext, [ManagedObject]) {
    let stack = try PersistentStack(model: TestModels.tickers(), options: { var o = PersistentStack.Options(); o.inMemory = true; return o }())
    let context = stack.importerContext()
    let tickers = try context.performAndWait {
        let tech = try context.insertObject(entityName: "Sector")
        tech["name"] = .string("Tech, \"Big\"")
        let tags = try ["growth", "large cap", "us"].map { label -> ManagedObject in
            let tag = try context.insertObject(entityName: "Tag")
            tag["label"] = .string(label)
            return tag
        }
        let values: [(String, Value, Double, Int64)] = [
            ("AAPL", .string("Apple, Inc."), 189.5, 1_000),
            ("MSFT", .string("  leading spaces"), 410.25, 2_000),
            ("ZZZ", .null, 0, 0),
        ]
        let tickers = try values.map { symbol, name, price, volume -> ManagedObject in
            let t = try context.insertObject(entityName: "Ticker")
            t["symbol"] = .string(symbol)
            t["name"] = name
            t["price"] = .double(price)
            t["volume"] = .integer(volume)
            return t
        }
        tickers[0]["listed"] = .date(Date(timeIntervalSince1970: 345_479_400))  // 1980-12-12T14:30:00Z
        tickers[1]["listed"] = .date(Date(timeIntervalSince1970: 511_056_000.25))
        tickers[1]["name"] = .string("Micro\"soft\"\nCorp")
        try tickers[0].setObject(tech, forKey: "sector")
        try tickers[1].setObject(tech, forKey: "sector")
        try tickers[0].add(tags[0], toKey: "tags")
        try tickers[0].add(tags[2], toKey: "tags")
        try tickers[1].add(tags[1], toKey: "tags")
        try context.save()
        return tickers
    }
    return (context, tickers)
}

@Suite("Export formatters: CSV, JSON Lines, JSON array")
struct ExportFormatterTests {
    @Test("CSV quotes fields with commas, quotes, line breaks and edge spaces, doubling quotes")
    func csvQuoting() throws {
        let (context, tickers) = try tickerFixture()
        let text = try context.performAndWait { try formatted(CSVFormatter(columns: ["symbol", "name"], lineEnding: "\n"), tickers) }
        #expect(text == "symbol,name\nAAPL,\"Apple, Inc.\"\nMSFT,\"Micro\"\"soft\"\"\nCorp\"\nZZZ,\n")
        var bytes: [UInt8] = []
        CSVFormatter.appendField(Array("  padded".utf8), to: &bytes)
        CSVFormatter.appendField(Array(",".utf8), to: &bytes)
        CSVFormatter.appendField(Array("plain".utf8), to: &bytes)
        CSVFormatter.appendField(Array("cr\rhere".utf8), to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "\"  padded\"\",\"plain\"cr\rhere\"")
    }

    @Test("CSV rows end with CRLF by default (RFC 4180)")
    func csvLineEnding() throws {
        let (context, tickers) = try tickerFixture()
        let text = try context.performAndWait { try formatted(CSVFormatter(columns: ["symbol"]), Array(tickers.prefix(1))) }
        #expect(text == "symbol\r\nAAPL\r\n")
    }

    @Test("the CSV whitelist picks columns and their order and renames headers; no whitelist writes every stored attribute")
    func csvWhitelist() throws {
        let (context, tickers) = try tickerFixture()
        let chosen = try context.performAndWait {
            try formatted(CSVFormatter(columns: ["volume", ExportColumn("symbol", header: "ticker")], lineEnding: "\n"), [tickers[0]])
        }
        #expect(chosen == "volume,ticker\n1000,AAPL\n")
        let all = try context.performAndWait { try formatted(CSVFormatter(lineEnding: "\n"), [tickers[0]]) }
        // `note` is transient: not exported.
        #expect(all == "active,listed,name,price,symbol,volume\ntrue,1980-12-12T14:30:00Z,\"Apple, Inc.\",189.5,AAPL,1000\n")
    }

    @Test("CSV follows to-one key paths (empty when the to-one is nil)")
    func csvToOneKeyPaths() throws {
        let (context, tickers) = try tickerFixture()
        let text = try context.performAndWait { try formatted(CSVFormatter(columns: ["symbol", "sector.name"], lineEnding: "\n"), tickers) }
        #expect(text == "symbol,sector.name\nAAPL,\"Tech, \"\"Big\"\"\"\nMSFT,\"Tech, \"\"Big\"\"\"\nZZZ,\n")
        var csv = CSVFormatter(columns: ["sector.name", "tags.label"])
        try context.performAndWait { try csv.prepare(for: tickers[0].entity, model: context.model) }
        #expect(csv.prefetchKeyPaths == ["sector", "tags"])
    }

    @Test("CSV writes a path across a to-many as joined values or as a count")
    func csvToMany() throws {
        let (context, tickers) = try tickerFixture()
        let columns: [ExportColumn] = [
            "symbol",
            ExportColumn("tags.label", header: "tags", toMany: .joined(separator: "|")),
            ExportColumn("tags.label", header: "tag count", toMany: .count),
            "tags",
            "tags.@count",
        ]
        let text = try context.performAndWait { try formatted(CSVFormatter(columns: columns, lineEnding: "\n"), tickers) }
        let rows = text.split(separator: "\n").map(String.init)
        #expect(rows[0] == "symbol,tags,tag count,tags,tags.@count")
        // Set order is not fixed: compare the joined values as sets.
        let aapl = rows[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(aapl[0] == "AAPL" && Set(aapl[1].split(separator: "|")) == ["growth", "us"] && aapl[2...] == ["2", "2", "2"])
        #expect(rows[2] == "MSFT,large cap,1,1,1")
        #expect(rows[3] == "ZZZ,,0,0,0")
    }

    @Test("CSV writes every attribute type's text: ISO 8601 dates, exact decimals, base64 binary, nil empty")
    func csvEveryType() throws {
        var b = ModelBuilder()
        b.entity("Everything") { e in
            e.attribute("i16", .integer16)
            e.attribute("i32", .integer32)
            e.attribute("i64", .integer64)
            e.attribute("dec", .decimal)
            e.attribute("dbl", .double)
            e.attribute("flt", .float)
            e.attribute("str", .string)
            e.attribute("flag", .boolean)
            e.attribute("when", .date)
            e.attribute("blob", .binary)
            e.attribute("id", .uuid)
            e.attribute("link", .uri)
            e.attribute("extra", .transformable)
        }
        let model = try b.build()
        let stack = try PersistentStack(model: model, options: { var o = PersistentStack.Options(); o.inMemory = true; return o }())
        let context = stack.importerContext()
        let text = try context.performAndWait {
            let full = try context.insertObject(entityName: "Everything")
            full["i16"] = .integer(-7)
            full["i32"] = .integer(2_147_483_647)
            full["i64"] = .integer(Int64.min)
            full["dec"] = .decimal(Decimal(string: "12345678901234567890.123456789")!)
            full["dbl"] = .double(0.1)
            full["flt"] = .double(2.5)
            full["str"] = .string("héllo")
            full["flag"] = .bool(false)
            full["when"] = .date(Date(timeIntervalSince1970: -1.5))
            full["blob"] = .data(Data([0, 1, 2, 250, 255]))
            full["id"] = .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
            full["link"] = .uri(URL(string: "https://example.com/a?b=c")!)
            full["extra"] = .json(.array([.number(1), .string("x")]))
            let empty = try context.insertObject(entityName: "Everything")
            empty["when"] = .date(Date(timeIntervalSince1970: 1_700_000_000.000123))
            return try formatted(CSVFormatter(lineEnding: "\n"), [full, empty])
        }
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The model keeps attributes in name order (as Core Data does).
        #expect(rows[0] == "blob,dbl,dec,extra,flag,flt,i16,i32,i64,id,link,str,when")
        #expect(rows[1] == "AAEC+v8=,0.1,12345678901234567890.123456789,\"[1,\"\"x\"\"]\",false,2.5,-7,2147483647,-9223372036854775808,E621E1F8-C36C-495A-93FC-0C247A3E6E5F,https://example.com/a?b=c,héllo,1969-12-31T23:59:58.500Z")
        #expect(rows[2] == ",,,,,,,,,,,,2023-11-14T22:13:20.000123Z")
    }

    @Test("an unknown column is refused before anything is written, naming the entity and key path")
    func unknownColumn() throws {
        let (context, tickers) = try tickerFixture()
        #expect(throws: ExportError.self) {
            try context.performAndWait { try formatted(CSVFormatter(columns: ["symbol", "sector.nope"]), tickers) }
        }
        do {
            var csv = CSVFormatter(columns: ["sector.nope"])
            try context.performAndWait { try csv.prepare(for: tickers[0].entity, model: context.model) }
        } catch let error as ExportError {
            #expect("\(error)".contains("sector.nope") && "\(error)".contains("Ticker"))
        }
    }

    @Test("JSON Lines writes one object per line with typed values, nulls and escapes")
    func jsonLines() throws {
        let (context, tickers) = try tickerFixture()
        let columns: [ExportColumn] = ["symbol", "name", "price", "volume", "active", "listed", "sector.name", ExportColumn("tags.label", header: "tags")]
        let text = try context.performAndWait { try formatted(JSONFormatter(layout: .lines, columns: columns), Array(tickers[1...])) }
        #expect(text == """
            {"symbol":"MSFT","name":"Micro\\"soft\\"\\nCorp","price":410.25,"volume":2000,"active":true,"listed":"1986-03-13T00:00:00.250Z","sector.name":"Tech, \\"Big\\"","tags":["large cap"]}
            {"symbol":"ZZZ","name":null,"price":0.0,"volume":0,"active":true,"listed":null,"sector.name":null,"tags":[]}

            """)
        for line in text.split(separator: "\n") {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
        }
    }

    @Test("a JSON array holds every record and is valid JSON, also when empty")
    func jsonArray() throws {
        let (context, tickers) = try tickerFixture()
        let text = try context.performAndWait { try formatted(JSONFormatter(layout: .array, columns: ["symbol", "tags.@count"]), tickers) }
        #expect(text == "[\n{\"symbol\":\"AAPL\",\"tags.@count\":2},\n{\"symbol\":\"MSFT\",\"tags.@count\":1},\n{\"symbol\":\"ZZZ\",\"tags.@count\":0}\n]\n")
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        #expect(parsed?.count == 3)
        var empty = JSONFormatter(layout: .array)
        var bytes: [UInt8] = []
        try context.performAndWait { try empty.prepare(for: tickers[0].entity, model: context.model) }
        empty.header(into: &bytes)
        empty.footer(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "[]\n")
    }
}
