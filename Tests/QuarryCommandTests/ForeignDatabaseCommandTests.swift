import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// `quarry stats`, `model`, `export`, `convert` and `browse` on an SQLite database Quarry did
/// not make (``PlainSQLiteFixture``): read-only, real names, and not a byte written.
struct ForeignDatabaseCommandTests {
    let directory = TemporaryDirectory()

    /// The fixture in its own folder, and the sha256 of every file there.
    func database() throws -> (URL, [String: String]) {
        let folder = directory.file("db")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = try PlainSQLiteFixture.write(to: folder.appendingPathComponent("library.sqlite"))
        return (url, try fingerprint(folder))
    }

    func fingerprint(_ folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = SHA256.hex(Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
        return result
    }

    @Test func statsCountsEveryTableAndViewByItsOwnName() throws {
        let (url, before) = try database()
        let result = try QuarryExecutable.run(["stats", url.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("kind: SQLite database, read-only; model from the tables' schema"))
        for line in ["Städte und Flüsse  2", "books              3", "cheap_books        2", "tags               2"] {
            #expect(result.standardOutput.contains(line), "\(result.standardOutput)")
        }
        #expect(try fingerprint(url.deletingLastPathComponent()) == before)
    }

    @Test func modelPrintsTheIntrospectedModelWithBothDirectionsOfEachForeignKey() throws {
        let (url, before) = try database()
        let result = try QuarryExecutable.run(["model", url.path])
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.standardOutput
        #expect(text.contains("(SQLite database; model from the tables' schema)"))
        #expect(text.contains("author     -> authors    to-one"))
        #expect(text.contains("books    -> books    to-many"))
        #expect(text.contains("published_at  Date"))
        #expect(try fingerprint(url.deletingLastPathComponent()) == before)
    }

    @Test func exportFollowsForeignKeysAndFiltersOnQuotedUnicodeKeys() throws {
        let (url, before) = try database()
        let books = try QuarryExecutable.run(["export", url.path, "--entity", "books", "--sort", "title",
                                              "--columns", "title,author.name,published_at", "--where", "price < 10"])
        #expect(books.status == 0, "\(books.standardError)")
        #expect(books.standardOutput == """
            title,author.name,published_at\r
            The Dispossessed,Ursula K. Le Guin,1974-05-01\r
            The Left Hand of Darkness,Ursula K. Le Guin,1969-03-01\r

            """)
        let cities = try QuarryExecutable.run(["export", url.path, "--entity", "Städte und Flüsse", "--format", "jsonl",
                                               "--where", "`Einwohner (2020)` > 500000"])
        #expect(cities.status == 0, "\(cities.standardError)")
        #expect(cities.standardOutput.contains("\"Name der Stadt\":\"München\""))
        #expect(!cities.standardOutput.contains("Zürich"))
        #expect(try fingerprint(url.deletingLastPathComponent()) == before)
    }

    @Test func convertCopiesItIntoAQuarryStoreThatKeepsItsNames() throws {
        let (url, before) = try database()
        let out = directory.file("copy.sqlite")
        let result = try QuarryExecutable.run(["convert", url.path, out.path])
        #expect(result.status == 0, "\(result.standardError)")
        let stats = try QuarryExecutable.run(["stats", out.path])
        #expect(stats.status == 0, "\(stats.standardError)")
        #expect(stats.standardOutput.contains("Städte und Flüsse  2"))
        #expect(try fingerprint(url.deletingLastPathComponent()) == before)
    }

    @Test func writingIsRefusedByNameAndNothingIsWritten() throws {
        let (url, before) = try database()
        let write = try QuarryExecutable.run(["browse", url.path, "--write"])
        #expect(write.status == 64)
        #expect(write.standardError.contains("opened read-only; --write is not supported"))
        let csv = try QuarryExecutable.write("label,color\nnew,red\n", to: directory.file("tags.csv"))
        let imported = try QuarryExecutable.run(["import", url.path, csv.path, "--entity", "tags"])
        #expect(imported.status != 0)
        #expect(imported.standardError.contains("\(url.path): not a Quarry store"))
        let migrated = try QuarryExecutable.run(["migrate", url.path, "--model", csv.path])
        #expect(migrated.status != 0)
        #expect(try fingerprint(url.deletingLastPathComponent()) == before)
    }

    @Test(.enabled(if: TmuxHarness.isAvailable, "tmux is not installed"))
    func browseShowsTheTablesReadOnlyAndFollowsAForeignKey() async throws {
        let (url, before) = try database()
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"))
        let tmux = TmuxHarness(width: 110, height: 20)
        defer { tmux.shutDown() }
        try tmux.start("\(executable.path) browse \(url.path) --entity books --sort title")
        let first = try await tmux.waitForRow { $0.contains("read-only SQLite database; model from the tables' schema") }
        #expect(first != nil, "\((try? tmux.screen()) ?? [])")
        #expect(try await tmux.waitForRow { $0.hasPrefix("Solaris") && $0.contains("1961-06-01") } != nil, "\((try? tmux.screen()) ?? [])")
        try tmux.send("Enter")   // the detail page of the first book follows its author_id
        #expect(try await tmux.waitForRow { $0.contains("author") && $0.contains("Stanisław Lem ›") } != nil, "\((try? tmux.screen()) ?? [])")
        try tmux.send("Escape")
        try tmux.send("f")
        try tmux.send("-l", "author.name BEGINSWITH 'U'")
        try tmux.send("Enter")
        #expect(try await tmux.waitForRow { $0.contains("row 1/2") } != nil, "\((try? tmux.screen()) ?? [])")
        try tmux.send("e")       // editing is off
        #expect(try await tmux.waitForRow { $0.contains("read-only") } != nil)
        try tmux.send("q")
        #expect(try await tmux.waitForSessionEnd())
        #expect(try fingerprint(url.deletingLastPathComponent()) == before)
    }
}
