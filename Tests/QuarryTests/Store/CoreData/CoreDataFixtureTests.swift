import Foundation
import GRDB
import QuarryTestSupport
import Testing
@testable import Quarry

/// The Core Data fixture generator writes what Core Data writes: checked against the real
/// stores of the corpus where they show a convention, and case by case on the library fixture.
@Suite struct CoreDataFixtureTests {
    /// A fresh temporary folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-cdfixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `fixture` (the library by default) as `Library.sqlite` in a fresh folder, runs
    /// `body` on its URL, and removes the folder.
    static func withWritten(_ fixture: CoreDataFixture? = nil, walOnly: Bool = false, _ body: (URL) throws -> Void) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Library.sqlite")
        try (fixture ?? CoreDataFixture.library).write(to: url, walOnly: walOnly)
        try body(url)
    }

    /// Runs `body` on a read connection to `url`.
    static func read<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    static func columns(_ db: Database, _ table: String) throws -> [String] {
        try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] }
    }

    @Test func theLibraryIsLaidOutWithCoreDatasTablesAndColumnNames() throws {
        try Self.withWritten { url in try Self.read(url) { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
            #expect(tables == ["ZAUTHOR", "Z_1BOOKS", "ZITEM", "ZLOAN", "ZSHELF", "ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING",
                               "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"])
            // Item ← Book, Film in one table; integers and keys, then reals and dates, text, blobs;
            // Film's clashing format and length numbered after Book's.
            #expect(try Self.columns(db, "ZITEM") == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZSHELF", "Z_FOK_SHELF", "ZINPRINT", "ZLENGTH", "ZLENGTH1", "ZADDED", "ZRATING",
                "ZTITLE", "ZFORMAT", "ZFORMAT1", "ZCOVER", "ZIDENTIFIER", "ZLANGUAGES",
            ])
            // A to-one to an entity with sub-entities carries the target's entity number.
            #expect(try Self.columns(db, "ZLOAN") == ["Z_PK", "Z_ENT", "Z_OPT", "ZITEM", "Z2_ITEM", "ZDUE", "ZBORROWER"])
            #expect(try Self.columns(db, "Z_1BOOKS") == ["Z_1AUTHORS", "Z_3BOOKS", "Z_FOK_1AUTHORS"])
            let keys = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map {
                "\($0[0] as Int) \($0[1] as String) \($0[2] as Int) \($0[3] as Int)"
            }
            #expect(keys == ["1 Author 0 3", "2 Item 0 3", "3 Book 2 0", "4 Film 2 0", "5 Loan 0 2", "6 Shelf 0 2",
                             "16001 CHANGE 0 7", "16002 TRANSACTION 0 3", "16003 TRANSACTIONSTRING 0 5"])
            let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'Z%' ORDER BY name")
            #expect(indexes.contains("ZITEM_ZSHELF_INDEX"))
            #expect(indexes.contains("ZLOAN_ZITEM_INDEX"))
            #expect(indexes.contains("Z_1BOOKS_Z_3BOOKS_INDEX"))
        } }
    }

    @Test func rowsCarryEntityNumbersKeysOrderKeysAndCoreDataValues() throws {
        try Self.withWritten { url in try Self.read(url) { db in
            let items = try Row.fetchAll(db, sql: "SELECT Z_PK, Z_ENT, ZTITLE, ZSHELF, Z_FOK_SHELF, ZFORMAT, ZFORMAT1, ZLENGTH, ZLENGTH1 FROM ZITEM ORDER BY Z_PK")
            #expect(items.map { $0["Z_ENT"] as Int } == [3, 3, 4])
            #expect(items.map { $0["ZTITLE"] as String } == ["A Wizard of Earthsea", "Good Omens", "Stalker"])
            #expect(items.map { $0["ZSHELF"] as Int } == [1, 1, 1])
            // The shelf lists Good Omens, Earthsea, Stalker: order keys follow the list, not Z_PK.
            #expect(items.map { $0["Z_FOK_SHELF"] as Int } == [2048, 1024, 3072])
            #expect(items.map { $0["ZFORMAT"] as String? } == ["paperback", "hardback", nil])
            #expect(items.map { $0["ZFORMAT1"] as String? } == [nil, nil, "blu-ray"])
            #expect(items.map { $0["ZLENGTH1"] as Int? } == [nil, nil, 161])
            let loans = try Row.fetchAll(db, sql: "SELECT ZITEM, Z2_ITEM FROM ZLOAN ORDER BY Z_PK").map { [$0[0] as Int, $0[1] as Int] }
            #expect(loans == [[2, 3], [3, 4]])
            let authorships = try Row.fetchAll(db, sql: "SELECT Z_1AUTHORS, Z_3BOOKS, Z_FOK_1AUTHORS FROM Z_1BOOKS ORDER BY Z_3BOOKS, Z_FOK_1AUTHORS")
                .map { [$0[0] as Int, $0[1] as Int, $0[2] as Int] }
            #expect(authorships == [[1, 1, 1024], [2, 2, 1024], [3, 2, 2048]])
            let earthsea = try #require(try Row.fetchOne(db, sql: "SELECT ZADDED, ZIDENTIFIER, ZINPRINT FROM ZITEM WHERE Z_PK = 1"))
            // Seconds since 2001-01-01: 2024-03-01T00:00:00Z.
            #expect(earthsea["ZADDED"] as Double == Date(timeIntervalSince1970: 1_709_251_200).timeIntervalSinceReferenceDate)
            let uuid = UUID(uuidString: "6F1C2A5E-0B7D-4E8A-9C3F-1D2E3F4A5B6C")!
            #expect(earthsea["ZIDENTIFIER"] as Data == withUnsafeBytes(of: uuid.uuid) { Data($0) })
            #expect(earthsea["ZINPRINT"] as Int == 1)
            let languages = try #require(try Data.fetchOne(db, sql: "SELECT ZLANGUAGES FROM ZITEM WHERE Z_PK = 3"))
            let archive = try #require(try PropertyListSerialization.propertyList(from: languages, format: nil) as? [String: Any])
            #expect(archive["$archiver"] as? String == "NSKeyedArchiver")
            #expect((archive["$objects"] as? [Any])?.compactMap { $0 as? String }.contains("ru") == true)
        } }
    }

    @Test func theModelCacheDecodesToTheFixturesModel() throws {
        var blob: Data?
        try Self.withWritten { url in blob = try Self.read(url) { db in try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") } }
        let model = try CoreDataModelCache.model(fromCompressedArchive: try #require(blob))
        #expect(model.warnings.isEmpty, "\(model.warnings)")
        #expect(Set(model.entities.map(\.name)) == ["Author", "Item", "Book", "Film", "Loan", "Shelf"])
        #expect(model.entity(named: "Book")?.parentName == "Item")
        #expect(model.entity(named: "Item")?.isAbstract == true)
        for entity in CoreDataFixture.libraryModel {
            let decoded = try #require(model.entity(named: entity.name))
            #expect(decoded.definition.attributes.map { "\($0.name) \($0.type.rawValue)" }.sorted()
                == entity.attributes.map { "\($0.name) \(CoreDataModelDecoder.attributeTypes[Int64($0.type.code)]!.rawValue)" }.sorted())
            #expect(decoded.definition.relationships.map { "\($0.name) \($0.destination) \($0.inverse ?? "-") \($0.isToMany) \($0.isOrdered)" }.sorted()
                == entity.relationships.map { "\($0.name) \($0.destination) \($0.inverse ?? "-") \($0.isToMany) \($0.isOrdered)" }.sorted())
        }
    }

    @Test func aFixtureWithoutModelCacheHasNoModelCacheTable() throws {
        var fixture = try CoreDataFixture.library
        fixture.modelCache = .absent
        var tables: [String] = []
        try Self.withWritten(fixture) { url in
            tables = try Self.read(url) { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        }
        #expect(!tables.contains("Z_MODELCACHE"))
        #expect(tables.contains("Z_PRIMARYKEY") && tables.contains("ZITEM"))
    }

    @Test func theMetadataNamesTheStoreTypeAndUUIDAndHashesEveryEntity() throws {
        let fixture = try CoreDataFixture.library
        var metadata: Row?
        try Self.withWritten(fixture) { url in
            metadata = try Self.read(url) { db in try Row.fetchOne(db, sql: "SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA") }
        }
        let row = try #require(metadata)
        let plistData: Data = row["Z_PLIST"]
        #expect(plistData.starts(with: Data("bplist00".utf8)))
        let plist = try #require(try PropertyListSerialization.propertyList(from: plistData, format: nil) as? [String: Any])
        #expect(plist["NSStoreType"] as? String == "SQLite")
        #expect(plist["NSStoreUUID"] as? String == row["Z_UUID"] as String)
        #expect(row["Z_UUID"] as String == fixture.storeUUID.uuidString)
        let hashes = try #require(plist["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(Set(hashes.keys) == Set(CoreDataFixture.libraryModel.map(\.name)))
        #expect(hashes.values.allSatisfy { $0.count == 32 })
        #expect(Set(hashes.values).count == hashes.count)
    }

    @Test func historyTransactionsNameTheirAuthorsAndEachChangesRow() throws {
        try Self.withWritten { url in try Self.read(url) { db in
            let authors = try String.fetchAll(db, sql: """
                SELECT s.ZNAME FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZAUTHORTS ORDER BY t.ZTIMESTAMP
                """)
            #expect(authors == ["importer", "desk", "desk"])
            let changes = try Row.fetchAll(db, sql: """
                SELECT c.ZTRANSACTIONID, c.ZCHANGETYPE, k.Z_NAME, c.ZENTITYPK FROM ACHANGE c JOIN Z_PRIMARYKEY k ON k.Z_ENT = c.ZENTITY ORDER BY c.Z_PK
                """).map { "\($0[0] as Int) \($0[1] as Int) \($0[2] as String) \($0[3] as Int)" }
            #expect(changes == ["1 0 Author 1", "1 0 Book 1", "1 0 Shelf 1", "2 0 Loan 1", "2 1 Book 2", "2 0 Loan 3", "3 2 Loan 3"])
            #expect(try Int.fetchOne(db, sql: "SELECT DISTINCT Z_ENT FROM ACHANGE") == CoreDataFixture.HistoryEntity.change)
        } }
    }

    @Test func walOnlyLeavesEveryRowInTheWriteAheadLog() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Pending.sqlite")
        try CoreDataFixture.library.write(to: url, walOnly: true)
        let fm = FileManager.default
        #expect(fm.fileExists(atPath: url.path + "-wal"))
        #expect(!fm.fileExists(atPath: url.path + "-shm"))
        #expect(((try fm.attributesOfItem(atPath: url.path + "-wal")[.size] as? Int) ?? 0) > 0)

        // The main file alone has no tables: everything is in the WAL.
        let alone = try Self.temporaryFolder()
        defer { try? fm.removeItem(at: alone) }
        try fm.copyItem(at: url, to: alone.appendingPathComponent("Pending.sqlite"))
        #expect(try Self.read(alone.appendingPathComponent("Pending.sqlite")) { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
        } == 0)

        // With its WAL, a copy shows every row.
        let both = try Self.temporaryFolder()
        defer { try? fm.removeItem(at: both) }
        try fm.copyItem(at: url, to: both.appendingPathComponent("Pending.sqlite"))
        try fm.copyItem(atPath: url.path + "-wal", toPath: both.appendingPathComponent("Pending.sqlite").path + "-wal")
        #expect(try Self.read(both.appendingPathComponent("Pending.sqlite")) { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM ZITEM")
        } == 3)

        // And so does the sqlite3 shell, where installed (a reader other than GRDB's SQLite).
        let shell = URL(fileURLWithPath: "/usr/bin/sqlite3")
        guard fm.isExecutableFile(atPath: shell.path) else {
            print("skipped the sqlite3 shell check: /usr/bin/sqlite3 is not installed")
            return
        }
        let shellCopy = try Self.temporaryFolder()
        defer { try? fm.removeItem(at: shellCopy) }
        try fm.copyItem(at: url, to: shellCopy.appendingPathComponent("Pending.sqlite"))
        try fm.copyItem(atPath: url.path + "-wal", toPath: shellCopy.appendingPathComponent("Pending.sqlite").path + "-wal")
        let process = Process()
        process.executableURL = shell
        process.arguments = [shellCopy.appendingPathComponent("Pending.sqlite").path, "SELECT group_concat(ZNAME) FROM ZAUTHOR"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "Ursula K. Le Guin,Terry Pratchett,Neil Gaiman")
    }

    @Test func aCheckpointedStoreIsOneFileInWALModeLikeARealStore() throws {
        try Self.withWritten { url in
            #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
            #expect(!FileManager.default.fileExists(atPath: url.path + "-shm"))
            // Bytes 18 and 19 of the header: file format versions, 2 = WAL (as in the corpus stores).
            let header = try Data(contentsOf: url).prefix(20)
            #expect(Array(header.suffix(2)) == [2, 2])
        }
    }

    @Test func anExistingDestinationIsNeverOverwritten() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Taken.sqlite")
        try Data("keep me".utf8).write(to: url)
        #expect(throws: CoreDataFixtureError.destinationExists(url.path)) { try CoreDataFixture.library.write(to: url) }
        #expect(try Data(contentsOf: url) == Data("keep me".utf8))
    }

    @Test func aLinkToAnObjectOfTheWrongEntityIsRefusedByName() throws {
        var fixture = try CoreDataFixture.library
        fixture.objects.append(CoreDataFixture.Object("Loan", key: "bad-loan", links: ["item": ["fiction"]]))
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: CoreDataFixtureError.wrongDestination(object: "bad-loan", relationship: "item", target: "fiction", entity: "Shelf")) {
            try fixture.write(to: folder.appendingPathComponent("Bad.sqlite"))
        }
    }
}

/// The generator against the corpus: given the model a real store was made with, it must write
/// the same tables, column for column; and the conventions it follows must hold in the corpus.
extension CoreDataFixtureTests {
    /// A read-only look at a copy of a corpus store (opening the original would create its
    /// `-shm`), or `nil` with a message when the corpus is absent.
    static func corpusCopy(_ relativePath: String, into folder: URL) throws -> URL? {
        guard let stores = CoreDataStoreModelCacheTests.storesFolder else {
            print("skipped: corpus not present (../shared/corpus/coredata-stores)")
            return nil
        }
        let source = stores.appendingPathComponent(relativePath)
        let copy = folder.appendingPathComponent(source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: copy)
        return copy
    }

    /// The stored (non-transient) entities of an Xcode model, as fixture entities.
    static func fixtureEntities(_ model: ManagedObjectModel) -> [CoreDataFixture.Entity] {
        let codes = Dictionary(uniqueKeysWithValues: CoreDataModelDecoder.attributeTypes.map { ($0.value, Int($0.key)) })
        return model.entities.map { e in
            CoreDataFixture.Entity(
                e.name, parent: e.parentName, isAbstract: e.isAbstract,
                attributes: e.definition.attributes.filter { !$0.isTransient }.map {
                    CoreDataFixture.Attribute($0.name, CoreDataFixture.AttributeType(rawValue: codes[$0.type]!)!, isIndexed: $0.isIndexed)
                },
                relationships: e.definition.relationships.map {
                    CoreDataFixture.Relationship($0.name, to: $0.destination, inverse: $0.inverse, toMany: $0.isToMany, ordered: $0.isOrdered)
                }
            )
        }
    }

    /// The `CREATE` statements of `url`'s tables, and of its indexes unless `tablesOnly`.
    static func schemaSQL(_ url: URL, tablesOnly: Bool) throws -> [String] {
        try read(url) { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND (type = 'table' OR ?) ORDER BY name", arguments: [!tablesOnly])
        }
    }

    /// Each store with the model version it was made by, and whether to compare tables only
    /// (2.0.1's model declares fetch indexes, `Z_Bot_identifier`…, which the generator does not write).
    static let corpusStores: [(store: String, model: String, tablesOnly: Bool)] = [
        ("bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite",
         "bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld/TestModel.xcdatamodel", false),
        ("richardpiazza__XCServerCoreData/Tests/XCServerCoreData_1.2.0.sqlite",
         "richardpiazza__XCServerCoreData/Resources/XCServerCoreData.xcdatamodeld/XCServerCoreData1.2.0.xcdatamodel", false),
        ("richardpiazza__XCServerCoreData/Tests/XCServerCoreData_2.0.1.sqlite",
         "richardpiazza__XCServerCoreData/Resources/XCServerCoreData.xcdatamodeld/XCServerCoreData2.0.1.xcdatamodel", true),
    ]

    @Test(arguments: corpusStores.map { $0.store })
    func aRealStoresModelGeneratesExactlyItsSchema(store: String) throws {
        let (_, model, tablesOnly) = Self.corpusStores.first { $0.store == store }!
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let real = try Self.corpusCopy(store, into: folder), let stores = CoreDataStoreModelCacheTests.storesFolder else { return }
        let entities = Self.fixtureEntities(try ManagedObjectModel.load(xcodeModelAt: stores.appendingPathComponent(model)))
        let generated = folder.appendingPathComponent("Generated.sqlite")
        try CoreDataFixture(entities: entities).write(to: generated)
        #expect(try Self.schemaSQL(generated, tablesOnly: tablesOnly) == Self.schemaSQL(real, tablesOnly: tablesOnly))
        let numbering = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        #expect(try Self.read(generated) { try Row.fetchAll($0, sql: numbering) } == Self.read(real) { try Row.fetchAll($0, sql: numbering) })
    }

    /// Core Data groups a table's columns by declared type; the corpus shows it and the library
    /// (with sub-entities, which the corpus lacks) keeps it.
    @Test func columnsAreGroupedByDeclaredTypeInTheCorpusAndInTheLibrary() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Library.sqlite")
        try CoreDataFixture.library.write(to: library)
        var stores = [library]
        if let real = try Self.corpusCopy("richardpiazza__XCServerCoreData/Tests/XCServerCoreData_1.2.0.sqlite", into: folder) { stores.append(real) }
        let group = ["INTEGER": 0, "FLOAT": 1, "TIMESTAMP": 1, "DECIMAL": 1, "VARCHAR": 2, "BLOB": 3]
        for store in stores {
            try Self.read(store) { db in
                for name in try String.fetchAll(db, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_SUPER = 0 AND Z_ENT < 16000") {
                    let table = "Z" + name.uppercased()
                    let info = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))")
                    #expect(info.prefix(3).map { $0["name"] as String } == ["Z_PK", "Z_ENT", "Z_OPT"], "\(store.lastPathComponent) \(table)")
                    let groups = info.dropFirst(3).map { group[$0["type"] as String] ?? -1 }
                    #expect(!groups.contains(-1) && groups == groups.sorted(), "\(store.lastPathComponent) \(table): \(groups)")
                }
            }
        }
    }
}
