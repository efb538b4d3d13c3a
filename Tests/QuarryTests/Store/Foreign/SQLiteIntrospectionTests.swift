import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Any SQLite database opens read-only with a model read from its schema, and reads through
/// Quarry's own query paths (``PlainSQLiteFixture``).
@Suite("Foreign SQLite: the model and rows of a database Quarry did not make")
struct SQLiteIntrospectionTests {
    let dir = TemporaryDirectory()

    func open() throws -> (ForeignDatabase, SQLiteStore) {
        let url = try PlainSQLiteFixture.write(to: dir.file("plain.sqlite"))
        let database = try ForeignDatabase.open(path: url.path)
        return (database, try SQLiteStore(foreign: database))
    }

    /// The values of `attributes` of every object of `entity` matching `predicate`, sorted.
    func rows(_ store: SQLiteStore, _ entity: String, _ attributes: [String], where predicate: String? = nil,
              sort: [SortKey] = []) throws -> [[Value]] {
        let description = try #require(store.model.entity(named: entity))
        let query = StoreQuery(entity: description, predicate: try predicate.map { try ObjectPredicate(format: $0) },
                               sortDescriptors: sort)
        let ids = try store.objectIDs(for: query)
        let snapshots = try store.snapshots(for: ids)
        return ids.map { id in attributes.map { snapshots[id]!.values[description.attributeIndex($0)!] } }
    }

    @Test("tables and views become entities named as they are, Unicode included")
    func entities() throws {
        let (database, _) = try open()
        #expect(database.kind == .sqlite)
        #expect(database.model.entities.map(\.name).sorted() ==
                ["Städte und Flüsse", "authors", "book_tags", "books", "cheap_books", "reviews", "tags"])
        let city = try #require(database.model.entity(named: "Städte und Flüsse"))
        #expect(city.attributes.map(\.name).sorted() == ["Einwohner (2020)", "Name der Stadt", "κωδικός"])
        #expect(database.warnings.isEmpty, "\(database.warnings)")
    }

    @Test("column types follow the declared affinity and the values: dates, booleans, blobs, mixed columns")
    func attributeTypes() throws {
        let (database, _) = try open()
        let books = try #require(database.model.entity(named: "books"))
        func type(_ entity: EntityDescription, _ name: String) -> AttributeType? { entity.attribute(name)?.type }
        #expect(type(books, "id") == .integer64)
        #expect(type(books, "title") == .string)
        #expect(type(books, "price") == .double)
        #expect(type(books, "published_at") == .date)   // ISO-8601 text
        #expect(type(books, "updated") == .date)        // Unix seconds, named like a date
        #expect(type(books, "cover") == .binary)
        #expect(type(books, "in_print") == .boolean)
        let authors = try #require(database.model.entity(named: "authors"))
        #expect(type(authors, "born") == .date)          // declared DATE
        let reviews = try #require(database.model.entity(named: "reviews"))
        #expect(type(reviews, "note") == .string)        // untyped, holding text and a number
    }

    @Test("a column declared NOT NULL is a required attribute; the others stay optional")
    func notNullColumnsAreRequired() throws {
        let (database, _) = try open()
        let authors = try #require(database.model.entity(named: "authors"))
        #expect(authors.attribute("name")?.isOptional == false)
        #expect(authors.attribute("born")?.isOptional == true)
        #expect(authors.attribute("email")?.isOptional == true)
    }

    @Test("values read in Quarry's form: ISO text and Unix seconds as dates, blobs, booleans")
    func values() throws {
        let (_, store) = try open()
        let rows = try rows(store, "books", ["title", "published_at", "updated", "cover", "in_print"], sort: [SortKey("id")])
        #expect(rows.count == 3)
        #expect(rows[0] == [.string("The Dispossessed"), .date(Date(timeIntervalSince1970: 136_598_400)),
                            .date(Date(timeIntervalSince1970: 1_700_000_000)), .data(Data([0, 1, 2, 3])), .bool(true)])
        #expect(rows[1][1] == .date(Date(timeIntervalSince1970: -270_905_400)))  // 1961-06-01 12:30:00 UTC, to the millisecond
        #expect(rows[2][2] == .null)
        let notes = try self.rows(store, "reviews", ["note"], sort: [SortKey("stars")])
        #expect(notes == [[.string("42")], [.string("superb")]])
    }

    @Test("filters, sorts and quoted Unicode keys compile to SQL over the views")
    func queries() throws {
        let (_, store) = try open()
        #expect(try rows(store, "books", ["title"], where: "price < 10", sort: [SortKey("price", ascending: false)]) ==
                [[.string("The Dispossessed")], [.string("The Left Hand of Darkness")]])
        #expect(try rows(store, "books", ["title"], where: "author.name BEGINSWITH[c] 'stan'") == [[.string("Solaris")]])
        #expect(try rows(store, "Städte und Flüsse", ["Name der Stadt"], where: "`Einwohner (2020)` > 500000") == [[.string("München")]])
        let books = try #require(store.model.entity(named: "books"))
        let before1970 = try ObjectPredicate(format: "published_at < %@", .value(.date(Date(timeIntervalSince1970: 0))))
        #expect(try store.count(for: StoreQuery(entity: books, predicate: before1970)) == 2)
        let authors = try #require(store.model.entity(named: "authors"))
        #expect(try store.count(for: StoreQuery(entity: authors, predicate: try ObjectPredicate(format: "books.@count == 2"))) == 1)
    }

    @Test("foreign keys are followed both ways: to an integer key, a unique text column and a WITHOUT ROWID table")
    func relationships() throws {
        let (database, store) = try open()
        let model = database.model
        let books = try #require(model.entity(named: "books"))
        let authors = try #require(model.entity(named: "authors"))
        let author = try #require(books.relationshipIndex("author"))
        let ids = try store.objectIDs(for: StoreQuery(entity: books, sortDescriptors: [SortKey("id")]))
        let snapshots = try store.snapshots(for: ids)
        let ursula = try #require(snapshots[ids[0]]?.toOne[author])
        #expect(ursula.entityIndex == authors.index)
        let written = try store.relatedIDs(of: ursula, relationship: try #require(authors.relationshipIndex("books")))
        #expect(written == [ids[0], ids[2]])
        // reviews.author_email → authors.email (a UNIQUE column, not the key)
        #expect(try rows(store, "reviews", ["stars"], where: "authors.name == 'Stanisław Lem'") == [[.integer(4)]])
        // book_tags.tag → tags.label (the key of a WITHOUT ROWID table)
        #expect(try rows(store, "book_tags", ["weight"], where: "tags.color == 'gold'") == [[.integer(1)]])
        let tags = try #require(model.entity(named: "tags"))
        let sf = try store.objectIDs(for: StoreQuery(entity: tags, predicate: try ObjectPredicate(format: "label == 'sf'")))
        #expect(try store.relatedIDs(of: try #require(sf.first), relationship: try #require(tags.relationshipIndex("book_tags"))).count == 2)
    }

    @Test("WITHOUT ROWID tables, composite keys and views are keyed in primary-key order and fetched by ID")
    func keyedWithoutRowid() throws {
        let (_, store) = try open()
        #expect(try rows(store, "tags", ["label"]) == [[.string("classic")], [.string("sf")]])
        // A composite key on a rowid table: keyed by rowid (insertion order).
        #expect(try rows(store, "book_tags", ["book_id", "tag"]) ==
                [[.integer(1), .string("sf")], [.integer(1), .string("classic")], [.integer(2), .string("sf")]])
        let url = dir.file("pairs.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: """
            CREATE TABLE pairs (a TEXT, b INTEGER, note TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;
            INSERT INTO pairs VALUES ('y', 2, 'third'), ('x', 9, 'second'), ('x', 1, 'first');
            """) }
        try queue.close()
        let pairs = try SQLiteStore(foreign: try ForeignDatabase.open(path: url.path))
        #expect(try rows(pairs, "pairs", ["note"]) == [[.string("first")], [.string("second")], [.string("third")]])
        #expect(try rows(pairs, "pairs", ["note"], where: "a == 'x'", sort: [SortKey("b", ascending: false)]) ==
                [[.string("second")], [.string("first")]])
        #expect(try rows(store, "cheap_books", ["title"], sort: [SortKey("title")]) ==
                [[.string("The Dispossessed")], [.string("The Left Hand of Darkness")]])
    }

    @Test("every save is refused: the store is read-only")
    func saveRefused() throws {
        let (database, store) = try open()
        #expect(store.isReadOnly)
        let make = ChangeMaker(model: database.model)
        #expect(throws: StoreError.self) { _ = try store.insert([make.insert("tags", ["label": .string("new")])]) }
    }

    @Test("a name with '.' is shown with '_' and said so")
    func dottedNames() throws {
        let url = dir.file("dots.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "CREATE TABLE \"a.b\" (\"x.y\" INTEGER); INSERT INTO \"a.b\" VALUES (7)") }
        try queue.close()
        let database = try ForeignDatabase.open(path: url.path)
        #expect(database.model.entity(named: "a_b")?.attribute("x_y")?.type == .integer64)
        #expect(database.warnings.count == 2)
        #expect(database.warnings.allSatisfy { $0.contains(url.path) })
    }
}

/// Keys that are not identifiers are written in backticks, and read back the same.
@Suite("Predicates: backtick-quoted keys")
struct QuotedKeyPredicateTests {
    @Test("a quoted key with spaces, parentheses and a backtick parses as one key path component")
    func parses() throws {
        let predicate = try ObjectPredicate(format: "`Einwohner (2020)` > 5 AND `a``b`.`c d` == 'x'")
        #expect(predicate.description.contains("`Einwohner (2020)` > 5"))
        #expect(predicate.description.contains("`a``b`.`c d` == 'x'"))
        #expect(try ObjectPredicate(format: predicate.description) == predicate)
    }

    @Test("a key named like a keyword is quoted when formatted")
    func keywordKeys() throws {
        let predicate = try ObjectPredicate(format: "`and` == 1")
        #expect(predicate.description == "`and` == 1")
    }

    @Test("an unterminated or empty quoted key is refused with its column")
    func refused() {
        #expect(throws: QueryError.self) { try ObjectPredicate(format: "price > 1 AND `open") }
        #expect(throws: QueryError.self) { try ObjectPredicate(format: "`` == 1") }
    }
}
