import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Core Data stores read end to end: the reader's model and source, turned into views by
/// ``SQLiteStore/init(foreign:busyTimeout:)``, fetched through a stack like any store.
@Suite struct CoreDataStoreEndToEndTests {
    let dir = TemporaryDirectory()

    /// A read-only stack over the Core Data store at `url`.
    static func stack(_ url: URL, candidates: [ModelVersionHistory.Version] = []) throws -> (PersistentStack, ForeignDatabase) {
        let database = try ForeignDatabase.open(path: url.path, candidates: candidates)
        #expect(database.kind == .coreData)
        var options = PersistentStack.Options()
        options.foreignDatabase = database
        options.readOnly = true
        return (try PersistentStack(model: database.model, options: options), database)
    }

    @Test func aHandMadeStoreBrowsesWithInheritanceRelationshipsOrdersAndHistory() throws {
        let url = try CoreDataStoreFixture.folder(in: dir).appendingPathComponent("Pets.sqlite")
        try CoreDataStoreLayoutFixture.write(url)
        let (stack, _) = try Self.stack(url, candidates: [ModelVersionHistory.Version(name: "Pets 1", model: CoreDataStoreLayoutFixture.model())])
        let context = stack.temporaryContext()
        try context.performAndWait {
            let animals = try context.fetch(FetchRequest(entityName: "Animal", sortDescriptors: [SortKey("name")]))
            #expect(try animals.map { try $0.value(forKey: "name") } == [.string("Generic"), .string("Rex"), .string("Tom")])
            #expect(animals.map(\.entity.name) == ["Animal", "Dog", "Cat"])
            let cats = try context.fetch(FetchRequest(entityName: "Cat"))
            #expect(try cats.map { try $0.value(forKey: "toy") } == [.string("mouse")])
            let dogs = try context.fetch(FetchRequest(entityName: "Dog"))
            #expect(try dogs.map { try $0.value(forKey: "toy") } == [.string("bone")])
            #expect(try dogs.first?.value(forKey: "born") == .date(Date(timeIntervalSinceReferenceDate: 700_000_000)))

            let owner = try #require(try context.fetch(FetchRequest(entityName: "Owner")).first)
            #expect(try owner.value(forKey: "id") == .uuid(UUID(uuidString: CoreDataStoreLayoutFixture.ownerUUID)!))
            #expect(try owner.object(forKey: "favorite")?.entity.name == "Dog")
            #expect(try owner.objects(forKey: "pets").map { try $0.value(forKey: "name") } == [.string("Rex"), .string("Tom")])

            let tom = try #require(cats.first)
            #expect(try tom.objects(forKey: "tags").map { try $0.value(forKey: "label") } == [.string("small"), .string("loud")])
            let loud = try #require(try context.fetch(FetchRequest(entityName: "Tag", sortDescriptors: [SortKey("label")])).first)
            #expect(try Set(loud.objects(forKey: "animals").map { try $0.value(forKey: "name") }) == [.string("Tom"), .string("Rex")])

            let transactions = try context.fetch(FetchRequest(entityName: "History", sortDescriptors: [SortKey("timestamp")]))
            #expect(try transactions.map { try $0.value(forKey: "author") } == [.string("app")])
            let changes = try transactions.first?.objects(forKey: "changes") ?? []
            #expect(try Set(changes.map { try $0.value(forKey: "changeType") }) == [.string("insert"), .string("delete")])
        }
    }

    @Test(arguments: CoreDataStoreModelCacheTests.stores.map(\.store))
    func aRealStoreFetchesAsManyObjectsOfEachEntityAsItsTablesHold(store: String) throws {
        guard let copy = try CoreDataStoreFixture.copy(store, into: dir) else {
            print("skipped: corpus not present (../shared/corpus/coredata-stores)")
            return
        }
        let expected = try CoreDataStoreFixture.withReadOnly(copy) { db in
            try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000").map { row -> (String, Int) in
                let name: String = row["Z_NAME"]
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM Z\(name.uppercased()) WHERE Z_ENT = ?", arguments: [row["Z_ENT"] as Int]) ?? -1
                return (name, count)
            }
        }
        let (stack, database) = try Self.stack(copy)
        #expect(database.modelSource == "the store's Z_MODELCACHE")
        let context = stack.temporaryContext()
        try context.performAndWait {
            for (name, count) in expected {
                let objects = try context.fetch(FetchRequest(entityName: name))
                #expect(objects.count == count, "\(name)")
                // Every attribute of every object reads without error.
                for object in objects.prefix(50) {
                    for a in object.entity.attributes { _ = try object.value(forKey: a.name) }
                    for r in object.entity.relationships where r.isToMany { _ = try object.objects(forKey: r.name) }
                }
            }
        }
    }
}

extension CoreDataStoreEndToEndTests {
    /// Two sibling entities each declaring `account` (to a tree with sub-entities) and
    /// `amount`: Core Data numbers the second's columns (`ZACCOUNT1`, `Z1_ACCOUNT1`,
    /// `ZAMOUNT1`); Quarry's layout shares one column per name between siblings, which must
    /// still read each row's own value.
    @Test func siblingsNumberedColumnsReadEachRowsOwnValueThroughSharedLayoutColumns() throws {
        let url = try CoreDataStoreFixture.folder(in: dir).appendingPathComponent("Ledger.sqlite")
        try CoreDataStoreFixture.withWritable(url) { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Account', 0, 11), (2, 'Cash', 1, 0), (3, 'Bank', 1, 0),
                    (4, 'Entry', 0, 2), (5, 'Deposit', 4, 0), (6, 'Withdrawal', 4, 0);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZACCOUNT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                INSERT INTO ZACCOUNT VALUES (10, 2, 1, 'wallet'), (11, 3, 1, 'bank');
                CREATE TABLE ZENTRY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZACCOUNT INTEGER, Z1_ACCOUNT INTEGER,
                    ZACCOUNT1 INTEGER, Z1_ACCOUNT1 INTEGER, ZAMOUNT FLOAT, ZAMOUNT1 FLOAT);
                INSERT INTO ZENTRY VALUES (1, 5, 1, 10, 2, NULL, NULL, 5.0, NULL), (2, 6, 1, NULL, NULL, 11, 3, NULL, 7.5);
                """)
        }
        let model = try ManagedObjectModel(ModelDefinition(entities: [
            EntityDefinition(name: "Account", attributes: [AttributeDescription(name: "name", type: .string)]),
            EntityDefinition(name: "Cash", parent: "Account"), EntityDefinition(name: "Bank", parent: "Account"),
            EntityDefinition(name: "Entry"),
            EntityDefinition(name: "Deposit", parent: "Entry", attributes: [AttributeDescription(name: "amount", type: .double)],
                             relationships: [RelationshipDescription(name: "account", destination: "Account")]),
            EntityDefinition(name: "Withdrawal", parent: "Entry", attributes: [AttributeDescription(name: "amount", type: .double)],
                             relationships: [RelationshipDescription(name: "account", destination: "Account")]),
        ]))
        let (stack, database) = try Self.stack(url, candidates: [ModelVersionHistory.Version(name: "Ledger", model: model)])
        #expect(database.modelSource.hasPrefix("version 'Ledger' of --model (its entity and property names match"))
        let context = stack.temporaryContext()
        try context.performAndWait {
            let entries = try context.fetch(FetchRequest(entityName: "Entry")).sorted { $0.entity.name < $1.entity.name }
            #expect(entries.map(\.entity.name) == ["Deposit", "Withdrawal"])
            #expect(try entries.map { try $0.value(forKey: "amount") } == [.double(5), .double(7.5)])
            #expect(try entries.map { try $0.object(forKey: "account")?.entity.name } == ["Cash", "Bank"])
            #expect(try entries.map { try $0.object(forKey: "account")?.value(forKey: "name") } == [.string("wallet"), .string("bank")])
        }
    }
}

extension CoreDataStoreEndToEndTests {
    /// A transformable attribute holding an NSKeyedArchiver archive (what Core Data's
    /// `NSSecureUnarchiveFromData` writes) reads as JSON; one holding garbage reads as the
    /// placeholder, and the row still reads.
    @Test func transformableArchivesReadAsJSONThroughTheStore() throws {
        let url = try CoreDataStoreFixture.folder(in: dir).appendingPathComponent("Notes.sqlite")
        let archive = try NSKeyedArchiver.archivedData(withRootObject: ["tags": ["a", "b"]] as NSDictionary, requiringSecureCoding: false)
        try CoreDataStoreFixture.withWritable(url) { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 2);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZEXTRA BLOB, ZTITLE VARCHAR);
                """)
            try db.execute(sql: "INSERT INTO ZNOTE VALUES (1, 1, 1, ?, 'one'), (2, 1, 1, x'DEADBEEF', 'two')", arguments: [archive])
        }
        let model = try ManagedObjectModel(ModelDefinition(entities: [
            EntityDefinition(name: "Note", attributes: [
                AttributeDescription(name: "extra", type: .transformable, valueTransformerName: "NSSecureUnarchiveFromData"),
                AttributeDescription(name: "title", type: .string)]),
        ]))
        let (stack, _) = try Self.stack(url, candidates: [ModelVersionHistory.Version(name: "Notes", model: model)])
        let context = stack.temporaryContext()
        try context.performAndWait {
            let notes = try context.fetch(FetchRequest(entityName: "Note", sortDescriptors: [SortKey("title")]))
            #expect(try notes.map { try $0.value(forKey: "extra") } == [
                .json(.object(["tags": .array([.string("a"), .string("b")])])),
                .json(.object(["$undecoded": .string("4 bytes"), "base64": .string(Data([0xDE, 0xAD, 0xBE, 0xEF]).base64EncodedString())])),
            ])
        }
    }
}

extension CoreDataStoreEndToEndTests {
    /// A Core Data store in WAL mode whose newest rows are only in its `-wal` (a store copied
    /// while the app had it open) shows them, and none of its three files changes.
    @Test func rowsOnlyInTheWriteAheadLogShowAndNoFileChanges() throws {
        let url = try CoreDataStoreFixture.folder(in: dir).appendingPathComponent("Pets.sqlite")
        try CoreDataStoreLayoutFixture.write(url, history: false)
        let writer = try WALWriter.keepingRowsInLog(at: url, inLog: ["INSERT INTO ZTAG VALUES (3, 5, 1, 'in the log only')"])
        let files = ["", "-wal", "-shm"].map { url.path + $0 }
        let before = try files.map { SHA256.hex(Array(try Data(contentsOf: URL(fileURLWithPath: $0)))) }
        do {
            let (stack, _) = try Self.stack(url, candidates: [ModelVersionHistory.Version(name: "Pets 1", model: CoreDataStoreLayoutFixture.model())])
            let context = stack.temporaryContext()
            try context.performAndWait {
                let tags = try context.fetch(FetchRequest(entityName: "Tag", sortDescriptors: [SortKey("label")]))
                #expect(try tags.map { try $0.value(forKey: "label") } == [.string("in the log only"), .string("loud"), .string("small")])
            }
        }
        #expect(try files.map { SHA256.hex(Array(try Data(contentsOf: URL(fileURLWithPath: $0)))) } == before)
        try writer.close()
    }
}
