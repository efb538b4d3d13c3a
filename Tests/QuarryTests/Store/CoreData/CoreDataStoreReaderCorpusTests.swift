import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// The reader on every real Core Data store of the corpus: entity names and counts as Core Data
/// has them, the model source chosen and said, and the bundle version picked from `--model`.
@Suite struct CoreDataStoreReaderCorpusTests {
    let dir = TemporaryDirectory()

    static let stores = CoreDataStoreModelCacheTests.stores

    @Test(arguments: stores.map(\.store))
    func aRealStoreReadsWithItsEntitiesAndTheirRowCounts(store: String) throws {
        guard let copy = try CoreDataStoreFixture.copy(store, into: dir) else {
            print("skipped: corpus not present (../shared/corpus/coredata-stores)")
            return
        }
        let d = try CoreDataStoreFixture.read(copy)
        #expect(d.modelSource == "the store's Z_MODELCACHE")
        #expect(d.warnings.isEmpty, "\(d.warnings)")
        #expect(d.storeIdentifier != nil)
        try CoreDataStoreFixture.withReadOnly(copy) { db in
            let rows = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
            let names = rows.map { $0["Z_NAME"] as String }
            #expect(Set(d.model.entities.map(\.name)) == Set(names))
            for row in rows {
                let name: String = row["Z_NAME"]
                let number: Int = row["Z_ENT"]
                let e = d.model.entity(named: name)!
                let table = "Z" + d.model.entities[e.rootIndex].name.uppercased()
                let expected = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE Z_ENT IN (\(number))") ?? -1
                let objects = try Row.fetchAll(db, sql: CoreDataStoreFixture.select(d, entity: name))
                #expect(objects.filter { ($0[1] as Int) == e.index }.count == expected, "\(name)")
            }
        }
    }

    @Test(arguments: stores)
    func withItsBundleAsModelTheVersionItWasWrittenWithIsChosenAndSaid(store: String, model: String) throws {
        guard let copy = try CoreDataStoreFixture.copy(store, into: dir), let folder = CoreDataStoreModelCacheTests.storesFolder else {
            print("skipped: corpus not present (../shared/corpus/coredata-stores)")
            return
        }
        let history = try ModelVersionHistory.load(xcodeBundleAt: folder.appendingPathComponent(model).deletingLastPathComponent())
        let d = try CoreDataStoreFixture.read(copy, candidates: history.versions)
        let version = URL(fileURLWithPath: model).deletingPathExtension().lastPathComponent
        #expect(d.modelSource.hasPrefix("version '\(version)' of --model"), "\(d.modelSource)")
        #expect(d.warnings.isEmpty, "\(d.warnings)")
    }

    /// The compiled `.momd` beside the XCServerCoreData stores serves as `--model` as its source
    /// bundle does: the version each store was written with is chosen (the 2.0.3 version some
    /// stores need exists only in the source bundle, and is left out here).
    @Test(arguments: stores.filter { $0.store.hasPrefix("richardpiazza__XCServerCoreData/") })
    func withTheCompiledBundleAsModelTheVersionItWasWrittenWithIsChosen(store: String, model: String) throws {
        guard let copy = try CoreDataStoreFixture.copy(store, into: dir), let folder = CoreDataStoreModelCacheTests.storesFolder else {
            print("skipped: corpus not present (../shared/corpus/coredata-stores)")
            return
        }
        let momd = folder.appendingPathComponent("richardpiazza__XCServerCoreData/Tests/XCServerCoreData.momd")
        let history = try ModelVersionHistory.load(compiledBundleAt: momd)
        let version = URL(fileURLWithPath: model).deletingPathExtension().lastPathComponent
        guard history.versions.contains(where: { $0.name == version }) else { return }
        let d = try CoreDataStoreFixture.read(copy, candidates: history.versions)
        #expect(d.modelSource.hasPrefix("version '\(version)' of --model"), "\(d.modelSource)")
        #expect(d.warnings.isEmpty, "\(d.warnings)")
    }

    /// Values come through in Quarry's forms: a date attribute of the 2.0.1 store reads as the
    /// REAL seconds Core Data wrote, and a to-one key as the destination's Z_PK.
    @Test func aRealStoresValuesAndToOneKeysComeThroughUnchanged() throws {
        guard let copy = try CoreDataStoreFixture.copy("richardpiazza__XCServerCoreData/Tests/XCServerCoreData_2.0.1.sqlite", into: dir) else {
            print("skipped: corpus not present (../shared/corpus/coredata-stores)")
            return
        }
        let d = try CoreDataStoreFixture.read(copy)
        let integration = d.model.entity(named: "Integration")!
        let keys: [StoreLayout.ColumnKey] = [.attribute(entity: integration.index, name: "queuedDate"),
                                              .toOneKey(entity: integration.index, relationship: "bot")]
        try CoreDataStoreFixture.withReadOnly(copy) { db in
            let viaSource = try Row.fetchAll(db, sql: CoreDataStoreFixture.select(d, entity: "Integration", keys: keys))
            let direct = try Row.fetchAll(db, sql: "SELECT Z_PK, ZQUEUEDDATE, ZBOT FROM ZINTEGRATION ORDER BY Z_PK")
            #expect(viaSource.count == direct.count)
            #expect(!direct.isEmpty)
            for (a, b) in zip(viaSource, direct) {
                #expect((a[0] as Int64) == (b[0] as Int64))
                #expect((a[2] as Double?) == (b[1] as Double?))
                #expect((a[3] as Int64?) == (b[2] as Int64?))
            }
        }
    }

    /// The many-to-many pairs of the corpus read from Core Data's `Z_<n><NAME>` tables.
    @Test func aRealStoresManyToManyPairsComeFromItsJoinTable() throws {
        guard let copy = try CoreDataStoreFixture.copy("bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite", into: dir) else {
            print("skipped: corpus not present (../shared/corpus/coredata-stores)")
            return
        }
        let d = try CoreDataStoreFixture.read(copy)
        try CoreDataStoreFixture.withReadOnly(copy) { db in
            let expected = try Row.fetchAll(db, sql: "SELECT Z_1AUTHORS, Z_2BOOKS FROM Z_1BOOKS ORDER BY 1, 2").map { [$0[0] as Int64?, $0[1] as Int64?] }
            let author = try CoreDataStoreFixture.pairs(db, d, entity: "Author", relationship: "books")
            let book = try CoreDataStoreFixture.pairs(db, d, entity: "Book", relationship: "authors")
            #expect(author.map { Array($0.prefix(2)) } == expected)
            #expect(book.map { [$0[1], $0[0]] }.sorted { "\($0)" < "\($1)" } == expected.sorted { "\($0)" < "\($1)" })
            #expect(d.source.joinTables.count == 2)
        }
    }
}
