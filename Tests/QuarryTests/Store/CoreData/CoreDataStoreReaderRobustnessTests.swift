import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Odd but real shapes and damaged bookkeeping in hand-made stores: the reader warns and goes
/// on, never crashes.
@Suite struct CoreDataStoreReaderRobustnessTests {
    let dir = TemporaryDirectory()

    /// A one-table store (`ZNOTE`) with `sql` run after it is made.
    func store(_ sql: String = "", arguments: StatementArguments = []) throws -> URL {
        let url = try CoreDataStoreFixture.folder(in: dir).appendingPathComponent("Notes.sqlite")
        try CoreDataStoreFixture.withWritable(url) { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Note', 0, 1);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
                CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOLOR BLOB, ZTITLE VARCHAR);
                INSERT INTO ZNOTE VALUES (1, 1, 1, NULL, 'one');
                """)
            if !sql.isEmpty { try db.execute(sql: sql, arguments: arguments) }
        }
        return url
    }

    @Test func aModelCacheNamingTheAppsOwnTransformerIsUsedWithTheArchiveTransformer() throws {
        let archive = try ModelArchiveFixture.archive([
            ModelArchiveFixture.Entity(name: "Note", attributes: [
                ModelArchiveFixture.Attribute(name: "color", code: 1800, valueTransformerName: "MyApp.ColorTransformer"),
                ModelArchiveFixture.Attribute(name: "title", code: 700),
            ]),
        ])
        let url = try store("INSERT INTO Z_MODELCACHE VALUES (?)", arguments: [KeyedArchiveFixture.deflate(archive)])
        let d = try CoreDataStoreFixture.read(url)
        #expect(d.modelSource == "the store's Z_MODELCACHE", "\(d.warnings)")
        #expect(d.model.entity(named: "Note")?.attribute("color")?.valueTransformerName == CoreDataArchiveTransformer.name)
    }

    @Test func damagedPrimaryKeyRowsAreSkippedWithWarnings() throws {
        let url = try store("""
            INSERT INTO Z_PRIMARYKEY VALUES (7, 'Odd', 'not a number', 0);
            CREATE TABLE ZODD (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (3, NULL, 0, 0);
            INSERT INTO Z_PRIMARYKEY VALUES (4, 'Note', 0, 0);
            INSERT INTO Z_PRIMARYKEY VALUES (5, 'Loop', 6, 0), (6, 'Pool', 5, 0);
            CREATE TABLE ZLOOP (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
            CREATE TABLE ZPOOL (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
            """)
        let d = try CoreDataStoreFixture.read(url)
        #expect(d.modelSource == "the store's tables")
        #expect(d.model.entities.map(\.name) == ["Loop", "Note", "Odd", "Pool"])
        #expect(d.warnings.contains("Z_PRIMARYKEY: a row without an entity number or name was skipped"))
        #expect(d.warnings.contains { $0.hasPrefix("Z_PRIMARYKEY: a second row for entity Note") })
        #expect(d.warnings.contains { $0.contains("Z_SUPER chain loops") })
    }

    @Test func aPrimaryKeyTableWithoutItsColumnsLeavesNoEntitiesAndAWarning() throws {
        let url = try store("DROP TABLE Z_PRIMARYKEY; CREATE TABLE Z_PRIMARYKEY (X INTEGER);")
        let d = try CoreDataStoreFixture.read(url)
        #expect(d.model.entities.isEmpty)
        #expect(d.warnings.contains { $0.hasPrefix("Z_PRIMARYKEY: could not be read") })
    }

    @Test func textWhereMetadataExpectsAPropertyListIsAWarning() throws {
        let url = try store("INSERT INTO Z_METADATA VALUES (1, x'FFFE', 'not a plist')")
        let d = try CoreDataStoreFixture.read(url)
        #expect(d.storeIdentifier == nil)
        #expect(d.warnings.contains { $0.hasPrefix("Z_METADATA: Z_PLIST skipped") })
    }
}
