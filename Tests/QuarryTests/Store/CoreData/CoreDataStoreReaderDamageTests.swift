import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Damaged copies of a real store: each damage gives a warning naming what was skipped and
/// the fallback used, never a crash.
@Suite struct CoreDataStoreReaderDamageTests {
    let dir = TemporaryDirectory()

    static let store = "richardpiazza__XCServerCoreData/Tests/XCServerCoreData_2.0.1.sqlite"

    /// A copy of the 2.0.1 store damaged by `sql`, or `nil` when the corpus is absent.
    func damaged(_ sql: String) throws -> URL? {
        guard let copy = try CoreDataStoreFixture.copy(Self.store, into: dir) else {
            print("skipped: corpus not present (../shared/corpus/coredata-stores)")
            return nil
        }
        try CoreDataStoreFixture.withWritable(copy) { try $0.execute(sql: sql) }
        return copy
    }

    @Test func aDamagedModelCacheFallsBackToTheTablesWithAWarning() throws {
        guard let copy = try damaged("UPDATE Z_MODELCACHE SET Z_CONTENT = x'00112233445566778899'") else { return }
        let d = try CoreDataStoreFixture.read(copy)
        #expect(d.modelSource == "the store's tables")
        #expect(d.warnings.contains { $0.hasPrefix("Z_MODELCACHE skipped: model cache:") })
        #expect(d.model.entities.count == 23)
        #expect(d.model.entity(named: "Integration")?.attribute("queueddate")?.type == .date)
    }

    @Test func aModelCacheThatIsNotAKeyedArchiveFallsBackWithAWarning() throws {
        // Valid raw DEFLATE (one stored block) around bytes that are no property list.
        guard let copy = try damaged("UPDATE Z_MODELCACHE SET Z_CONTENT = x'010500faff68656c6c6f'") else { return }
        let d = try CoreDataStoreFixture.read(copy)
        #expect(d.modelSource == "the store's tables")
        #expect(d.warnings.contains { $0.hasPrefix("Z_MODELCACHE skipped") && $0.contains("property list") })
    }

    @Test func garbageMetadataGivesAWarningAndTheModelCacheStillServes() throws {
        guard let copy = try damaged("UPDATE Z_METADATA SET Z_PLIST = x'62706c6973743030ffffffff'") else { return }
        let d = try CoreDataStoreFixture.read(copy)
        #expect(d.modelSource == "the store's Z_MODELCACHE")
        #expect(d.warnings.contains { $0.hasPrefix("Z_METADATA: Z_PLIST skipped") })
    }

    @Test func aPrimaryKeyRowNamingAMissingTableKeepsTheEntityEmptyWithAWarning() throws {
        guard let copy = try damaged("""
            UPDATE Z_MODELCACHE SET Z_CONTENT = NULL;
            INSERT INTO Z_PRIMARYKEY VALUES (99, 'Ghost', 0, 0);
            """) else { return }
        let d = try CoreDataStoreFixture.read(copy)
        #expect(d.modelSource == "the store's tables")
        #expect(d.warnings.contains { $0.contains("Ghost") && $0.contains("ZGHOST is missing") })
        let ghost = try #require(d.model.entity(named: "Ghost"))
        #expect(d.source.tables[ghost.index] == nil)
        #expect(d.model.entities.count == 24)
    }

    @Test func aTableDroppedFromUnderTheModelCacheLeavesItsEntityEmptyWithAWarning() throws {
        guard let copy = try damaged("DROP TABLE ZBOT") else { return }
        let d = try CoreDataStoreFixture.read(copy)
        #expect(d.modelSource == "the store's Z_MODELCACHE")
        #expect(d.warnings.contains { $0.contains("Bot") && $0.contains("ZBOT is missing") })
        #expect(d.source.tables[d.model.entity(named: "Bot")!.index] == nil)
    }
}
