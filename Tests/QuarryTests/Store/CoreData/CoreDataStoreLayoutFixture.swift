import Foundation
import GRDB
@testable import Quarry

/// A tiny store in Core Data's layout, written by hand: inheritance (Animal → Cat, Dog in
/// `ZANIMAL`, told apart by `Z_ENT`), a name both siblings declare (`toy`, in `ZTOY` and
/// `ZTOY1`, deliberately the other way round from Core Data's usual numbering so only the
/// data tells them apart), a to-one to a tree with sub-entities (`ZFAVORITE` + `Z1_FAVORITE`),
/// an ordered to-many through its inverse (`Z_FOK_OWNER`), an ordered many-to-many
/// (`Z_1TAGS` with `Z_FOK_5TAGS`), a UUID as 16 bytes, and persistent history.
enum CoreDataStoreLayoutFixture {
    static let ownerUUID = "01234567-89AB-CDEF-0123-456789ABCDEF"

    /// The model the store was "written with".
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(ModelDefinition(entities: [
            EntityDefinition(name: "Animal", attributes: [AttributeDescription(name: "name", type: .string)],
                             relationships: [
                                RelationshipDescription(name: "owner", destination: "Owner", inverse: "pets"),
                                RelationshipDescription(name: "tags", destination: "Tag", inverse: "animals", isToMany: true, isOrdered: true),
                             ]),
            EntityDefinition(name: "Cat", parent: "Animal", attributes: [
                AttributeDescription(name: "toy", type: .string), AttributeDescription(name: "lives", type: .integer64)]),
            EntityDefinition(name: "Dog", parent: "Animal", attributes: [
                AttributeDescription(name: "toy", type: .string), AttributeDescription(name: "born", type: .date)]),
            EntityDefinition(name: "Owner", attributes: [
                AttributeDescription(name: "id", type: .uuid), AttributeDescription(name: "name", type: .string)],
                             relationships: [
                                RelationshipDescription(name: "pets", destination: "Animal", inverse: "owner", isToMany: true, isOrdered: true),
                                RelationshipDescription(name: "favorite", destination: "Animal"),
                             ]),
            EntityDefinition(name: "Tag", attributes: [AttributeDescription(name: "label", type: .string)],
                             relationships: [RelationshipDescription(name: "animals", destination: "Animal", inverse: "tags", isToMany: true)]),
        ]))
    }

    /// Writes the store at `url`; `history` adds the persistent-history tables.
    static func write(_ url: URL, history: Bool = true) throws {
        let plist = try PropertyListSerialization.data(fromPropertyList: [
            "NSStoreUUID": "11111111-2222-3333-4444-555555555555",
            "NSStoreType": "SQLite",
            "NSStoreModelVersionHashes": ["Animal": Data(repeating: 1, count: 32), "Cat": Data(repeating: 2, count: 32),
                                          "Dog": Data(repeating: 3, count: 32), "Owner": Data(repeating: 4, count: 32),
                                          "Tag": Data(repeating: 5, count: 32)],
        ] as [String: Any], format: .binary, options: 0)
        try CoreDataStoreFixture.withWritable(url) { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Animal', 0, 3), (2, 'Cat', 1, 0), (3, 'Dog', 1, 0), (4, 'Owner', 0, 1), (5, 'Tag', 0, 2);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZANIMAL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLIVES INTEGER, ZOWNER INTEGER,
                    Z_FOK_OWNER INTEGER, ZBORN TIMESTAMP, ZNAME VARCHAR, ZTOY VARCHAR, ZTOY1 VARCHAR);
                INSERT INTO ZANIMAL VALUES (1, 2, 1, 9, 1, 2048, NULL, 'Tom', NULL, 'mouse');
                INSERT INTO ZANIMAL VALUES (2, 3, 1, NULL, 1, 1024, 700000000.0, 'Rex', 'bone', NULL);
                INSERT INTO ZANIMAL VALUES (3, 1, 1, NULL, NULL, NULL, NULL, 'Generic', NULL, NULL);
                CREATE TABLE ZOWNER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFAVORITE INTEGER, Z1_FAVORITE INTEGER,
                    ZID BLOB, ZNAME VARCHAR);
                INSERT INTO ZOWNER VALUES (1, 4, 1, 2, 3, x'0123456789ABCDEF0123456789ABCDEF', 'Ann');
                CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLABEL VARCHAR);
                INSERT INTO ZTAG VALUES (1, 5, 1, 'small'), (2, 5, 1, 'loud');
                CREATE TABLE Z_1TAGS (Z_1ANIMALS INTEGER, Z_5TAGS INTEGER, Z_FOK_5TAGS INTEGER, PRIMARY KEY (Z_1ANIMALS, Z_5TAGS));
                INSERT INTO Z_1TAGS VALUES (1, 1, 1), (1, 2, 2), (2, 2, 1);
                """)
            try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, '11111111-2222-3333-4444-555555555555', ?)", arguments: [plist])
            guard history else { return }
            try db.execute(sql: """
                INSERT INTO Z_PRIMARYKEY VALUES (16001, 'CHANGE', 0, 2), (16002, 'TRANSACTION', 0, 1), (16003, 'TRANSACTIONSTRING', 0, 2);
                CREATE TABLE ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR NOT NULL UNIQUE);
                INSERT INTO ATRANSACTIONSTRING VALUES (1, 16003, 1, 'app'), (2, 16003, 1, 'viewContext');
                CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER,
                    ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR,
                    ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB);
                INSERT INTO ATRANSACTION VALUES (1, 16002, 1, 1, NULL, 2, NULL, 700000000.5, NULL, 'com.example', NULL, NULL, NULL);
                CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER,
                    ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB);
                INSERT INTO ACHANGE VALUES (1, 16001, 1, 0, 2, 1, 1, NULL), (2, 16001, 1, 2, 5, 9, 1, NULL);
                """)
        }
    }
}
