import Foundation

extension CoreDataFixture {
    /// A small lending library exercising every layout case:
    /// - inheritance: `Item` (abstract) ← `Book`, `Film`, all in `ZITEM` told apart by `Z_ENT`;
    ///   both sub-entities declare `format` and `length`, so `Film`'s columns are `ZFORMAT1`
    ///   and `ZLENGTH1`;
    /// - many-to-many `Author.books` ↔ `Book.authors` (ordered on the book's side): join table
    ///   `Z_1BOOKS` with `Z_FOK_1AUTHORS`;
    /// - ordered one-to-many `Shelf.items` ↔ `Item.shelf`: `ZSHELF` and `Z_FOK_SHELF` in `ZITEM`;
    /// - a to-one whose destination has sub-entities, `Loan.item`: `ZITEM` and `Z2_ITEM` (the
    ///   item's `Z_ENT`) in `ZLOAN`;
    /// - dates, a UUID, binary data, a transformable (a keyed archive of strings);
    /// - persistent history: three transactions by two authors, with inserts, an update and the
    ///   delete of a loan no longer in the store.
    ///
    /// Entity numbers: Author 1, Item 2, Book 3, Film 4, Loan 5, Shelf 6.
    public static var library: CoreDataFixture {
        get throws {
            CoreDataFixture(entities: libraryModel, objects: try libraryObjects, history: libraryHistory)
        }
    }

    /// The library's model (see ``library``).
    public static let libraryModel: [Entity] = [
        Entity("Author", attributes: [Attribute("name", .string, isOptional: false), Attribute("born", .date)], relationships: [
            Relationship("books", to: "Book", inverse: "authors", toMany: true),
        ]),
        Entity("Item", isAbstract: true, attributes: [
            Attribute("title", .string, isOptional: false), Attribute("added", .date), Attribute("identifier", .uuid),
            Attribute("cover", .binary),
        ], relationships: [
            Relationship("shelf", to: "Shelf", inverse: "items"),
            Relationship("loans", to: "Loan", inverse: "item", toMany: true, deleteRule: 2),
        ]),
        Entity("Book", parent: "Item", attributes: [
            Attribute("format", .string), Attribute("length", .integer32), Attribute("inPrint", .boolean),
        ], relationships: [
            Relationship("authors", to: "Author", inverse: "books", toMany: true, ordered: true),
        ]),
        Entity("Film", parent: "Item", attributes: [
            Attribute("format", .string), Attribute("length", .integer32), Attribute("rating", .double),
            Attribute("languages", .transformable),
        ]),
        Entity("Loan", attributes: [Attribute("borrower", .string), Attribute("due", .date)], relationships: [
            Relationship("item", to: "Item", inverse: "loans"),
        ]),
        Entity("Shelf", attributes: [Attribute("name", .string)], relationships: [
            Relationship("items", to: "Item", inverse: "shelf", toMany: true, ordered: true),
        ]),
    ]

    /// 2024-03-01 00:00:00 UTC plus `days`.
    static func libraryDate(_ days: Double) -> Value { .date(Date(timeIntervalSinceReferenceDate: 730_944_000 + days * 86_400)) }

    static var libraryObjects: [Object] {
        get throws {
            [
                Object("Author", key: "le-guin", ["name": .string("Ursula K. Le Guin"), "born": .date(Date(timeIntervalSinceReferenceDate: -2_266_963_200))]),
                Object("Author", key: "pratchett", ["name": .string("Terry Pratchett")]),
                Object("Author", key: "gaiman", ["name": .string("Neil Gaiman")]),
                Object("Shelf", key: "fiction", ["name": .string("Fiction")], links: ["items": ["omens", "earthsea", "stalker"]]),
                Object("Shelf", key: "empty", ["name": .string("Returns")]),
                Object("Book", key: "earthsea", [
                    "title": .string("A Wizard of Earthsea"), "added": libraryDate(0), "format": .string("paperback"),
                    "length": .integer(183), "inPrint": .bool(true),
                    "identifier": .uuid(UUID(uuidString: "6F1C2A5E-0B7D-4E8A-9C3F-1D2E3F4A5B6C")!),
                ], links: ["authors": ["le-guin"]]),
                Object("Book", key: "omens", [
                    "title": .string("Good Omens"), "added": libraryDate(1.5), "format": .string("hardback"),
                    "length": .integer(412), "inPrint": .bool(false), "cover": .data(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])),
                ], links: ["authors": ["pratchett", "gaiman"]]),
                Object("Film", key: "stalker", [
                    "title": .string("Stalker"), "added": libraryDate(3), "format": .string("blu-ray"), "length": .integer(161),
                    "rating": .double(8.1), "languages": try .archivedStrings(["ru", "en"]),
                ]),
                Object("Loan", key: "loan-1", ["borrower": .string("Ada"), "due": libraryDate(14)], links: ["item": ["omens"]]),
                Object("Loan", key: "loan-2", ["borrower": .string("Grace"), "due": libraryDate(17)], links: ["item": ["stalker"]]),
            ]
        }
    }

    static var libraryHistory: [HistoryTransaction] {
        [
            HistoryTransaction(at: Date(timeIntervalSinceReferenceDate: 730_944_000), author: "importer", bundleID: "org.example.Library",
                               contextName: "import", processID: "412", changes: [
                                   HistoryChange(.insert, .object("le-guin")), HistoryChange(.insert, .object("earthsea")),
                                   HistoryChange(.insert, .object("fiction")),
                               ]),
            HistoryTransaction(at: Date(timeIntervalSinceReferenceDate: 731_073_600), author: "desk", bundleID: "org.example.Library",
                               changes: [
                                   HistoryChange(.insert, .object("loan-1")), HistoryChange(.update, .object("omens")),
                                   HistoryChange(.insert, .removed(entity: "Loan", primaryKey: 3)),
                               ]),
            HistoryTransaction(at: Date(timeIntervalSinceReferenceDate: 731_160_000), author: "desk", bundleID: "org.example.Library",
                               changes: [HistoryChange(.delete, .removed(entity: "Loan", primaryKey: 3))]),
        ]
    }
}
