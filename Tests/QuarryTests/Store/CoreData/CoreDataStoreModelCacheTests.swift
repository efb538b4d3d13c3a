import Foundation
import GRDB
import QuarryTestSupport
import Testing
@testable import Quarry

/// The real Core Data stores of the shared corpus: each store's `Z_MODELCACHE` must decode to
/// the model of the bundle version it was made with.
@Suite struct CoreDataStoreModelCacheTests {
    /// Each store, relative to `coredata-stores/`, with the model version it was written by.
    static let stores: [(store: String, model: String)] = [
        ("richardpiazza__XCServerCoreData/Tests/XCServerCoreData_1.2.0.sqlite",
         "richardpiazza__XCServerCoreData/Resources/XCServerCoreData.xcdatamodeld/XCServerCoreData1.2.0.xcdatamodel"),
        ("richardpiazza__XCServerCoreData/Tests/XCServerCoreData_2.0.0_empty.sqlite",
         "richardpiazza__XCServerCoreData/Resources/XCServerCoreData.xcdatamodeld/XCServerCoreData2.0.0.xcdatamodel"),
        ("richardpiazza__XCServerCoreData/Tests/XCServerCoreData_2.0.1.sqlite",
         "richardpiazza__XCServerCoreData/Resources/XCServerCoreData.xcdatamodeld/XCServerCoreData2.0.1.xcdatamodel"),
        ("bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite",
         "bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld/TestModel.xcdatamodel"),
    ]

    static var storesFolder: URL? {
        guard let models = ModelCorpus.directory else { return nil }
        let folder = models.deletingLastPathComponent().appendingPathComponent("coredata-stores")
        return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
    }

    /// The `Z_MODELCACHE` blob of `store`, read from a copy in a temporary folder.
    static func modelCache(of store: URL) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-modelcache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent(store.lastPathComponent)
        try FileManager.default.copyItem(at: store, to: copy)
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: copy.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            guard let blob = try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") else {
                throw CoreDataModelCacheError.notAKeyedArchive(missing: "Z_MODELCACHE row")
            }
            return blob
        }
    }

    /// What the comparison covers: entity names, parents and abstractness; attribute names and
    /// types; relationship names, destinations, cardinality, order and inverses.
    static func shape(_ model: ManagedObjectModel) -> [String] {
        model.entities.flatMap { e -> [String] in
            ["entity \(e.name) parent=\(e.parentName ?? "-") abstract=\(e.isAbstract)"]
                + e.definition.attributes.map { "  \(e.name).\($0.name): \($0.type.rawValue)" }
                + e.definition.relationships.map {
                    "  \(e.name).\($0.name) -> \($0.destination) toMany=\($0.isToMany) ordered=\($0.isOrdered) inverse=\($0.inverse ?? "-")"
                }
        }
    }

    @Test(arguments: stores.map(\.store))
    func aRealStoresModelCacheDecodesToTheModelItWasMadeWith(store: String) throws {
        guard let folder = Self.storesFolder else {
            print("skipped: corpus not present (../shared/corpus/coredata-stores)")
            return
        }
        let bundle = Self.stores.first { $0.store == store }!.model
        let decoded = try CoreDataModelCache.model(fromCompressedArchive: Self.modelCache(of: folder.appendingPathComponent(store)))
        let reference = try ManagedObjectModel.load(xcodeModelAt: folder.appendingPathComponent(bundle))
        #expect(!decoded.entities.isEmpty)
        #expect(Self.shape(decoded) == Self.shape(reference))
        #expect(decoded.warnings.isEmpty, "\(decoded.warnings)")
    }
}

extension CoreDataStoreModelCacheTests {
    /// The comparison above can tell versions apart: a store's cache does not match a
    /// neighbouring version of its bundle (2.0.1 added an Integration attribute over 2.0.0).
    @Test func aRealStoresModelCacheDiffersFromAnotherVersionOfItsBundle() throws {
        guard let folder = Self.storesFolder else {
            print("skipped: corpus not present (../shared/corpus/coredata-stores)")
            return
        }
        let decoded = try CoreDataModelCache.model(fromCompressedArchive: Self.modelCache(
            of: folder.appendingPathComponent("richardpiazza__XCServerCoreData/Tests/XCServerCoreData_2.0.1.sqlite")))
        let older = try ManagedObjectModel.load(xcodeModelAt: folder.appendingPathComponent(
            "richardpiazza__XCServerCoreData/Resources/XCServerCoreData.xcdatamodeld/XCServerCoreData2.0.0.xcdatamodel"))
        #expect(Self.shape(decoded) != Self.shape(older))
        #expect(decoded.entities.count == 23)
        #expect(decoded.entity(named: "Integration")?.definition.attributes.count ?? 0 > older.entity(named: "Integration")?.definition.attributes.count ?? 0
            || decoded.entity(named: "Integration")?.definition.relationships.count ?? 0 > older.entity(named: "Integration")?.definition.relationships.count ?? 0)
    }
}
