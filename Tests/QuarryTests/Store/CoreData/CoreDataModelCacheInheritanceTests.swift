import Foundation
import QuarryTestSupport
import Testing
@testable import Quarry

/// Issue 34, item 7: Core Data archives a sub-entity with every property it inherits, and a
/// required property without `NSIsOptional`. The cache must decode to the model as declared:
/// inherited properties once (on the parent), required ones required; a store with
/// sub-entities then keeps its real names and relationships instead of falling back to a
/// model rebuilt from its tables.
@Suite struct CoreDataModelCacheInheritanceTests {
    typealias F = ModelArchiveFixture

    private static var hierarchy: [F.Entity] { [
        F.Entity(name: "Item", isAbstract: true, attributes: [
            F.Attribute(name: "title", code: 700, isOptional: false),
            F.Attribute(name: "added", code: 900),
        ], relationships: [F.Relationship(name: "shelf", destination: "Shelf", inverse: "items", maxCount: 1, isOptional: false)]),
        F.Entity(name: "Book", parent: "Item", attributes: [F.Attribute(name: "pages", code: 200, isOptional: false)]),
        F.Entity(name: "Paperback", parent: "Book", attributes: [F.Attribute(name: "spine", code: 700)]),
        F.Entity(name: "Shelf", attributes: [F.Attribute(name: "name", code: 700)], relationships: [
            F.Relationship(name: "items", destination: "Item", inverse: "shelf"),
        ]),
    ] }

    @Test func subEntitiesTakeTheirInheritedPropertiesFromTheParentOnce() throws {
        let model = try CoreDataModelCache.model(fromArchive: F.archive(Self.hierarchy))
        #expect(model.warnings.isEmpty, "\(model.warnings)")
        let paperback = try #require(model.entity(named: "Paperback"))
        #expect(paperback.definition.attributes.map(\.name) == ["spine"])
        #expect(paperback.definition.relationships.isEmpty)
        #expect(paperback.attributes.map(\.name).sorted() == ["added", "pages", "spine", "title"])
        #expect(paperback.relationships.map(\.name) == ["shelf"])
        #expect(model.entity(named: "Book")?.definition.attributes.map(\.name) == ["pages"])
        #expect(model.entity(named: "Book")?.parentName == "Item")
    }

    @Test func requiredAttributesAndRelationshipsStayRequired() throws {
        let model = try CoreDataModelCache.model(fromArchive: F.archive(Self.hierarchy))
        let item = try #require(model.entity(named: "Item"))
        #expect(item.attribute("title")?.isOptional == false)
        #expect(item.attribute("added")?.isOptional == true)
        #expect(item.relationships.first { $0.name == "shelf" }?.isOptional == false)
        #expect(model.entity(named: "Book")?.attribute("pages")?.isOptional == false)
        // Inherited, the attribute keeps its parent's optionality.
        #expect(model.entity(named: "Paperback")?.attribute("title")?.isOptional == false)
        #expect(model.entity(named: "Shelf")?.relationships.first?.isOptional == true)
    }

    /// A store written with sub-entities reads through its own `Z_MODELCACHE`: entity and
    /// property names as Core Data has them, relationships kept, no fallback to the tables.
    @Test func aStoreWithSubEntitiesReadsThroughItsModelCache() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("Library.sqlite")
        try CoreDataFixture.library.write(to: url)
        let d = try CoreDataStoreFixture.read(url)
        #expect(d.modelSource == "the store's Z_MODELCACHE")
        #expect(!d.warnings.contains { $0.contains("Z_MODELCACHE skipped") }, "\(d.warnings)")
        let book = try #require(d.model.entity(named: "Book"))
        #expect(book.parentName == "Item")
        #expect(Set(book.relationships.map(\.name)) == ["shelf", "loans", "authors"])
        #expect(book.attribute("inPrint") != nil)
        #expect(d.model.entity(named: "Author")?.attribute("name")?.isOptional == false)
        #expect(d.model.entity(named: "Item")?.attribute("title")?.isOptional == false)
    }

    /// The real stores: every attribute and relationship has the optionality its Xcode model
    /// version gives it (the 2.0.1 store has required attributes, written with `_P` 241 and no
    /// `NSIsOptional`).
    @Test(arguments: CoreDataStoreModelCacheTests.stores)
    func aRealStoresCacheKeepsEachPropertysOptionality(store: String, model: String) throws {
        guard let folder = CoreDataStoreModelCacheTests.storesFolder else {
            print("skipped: corpus not present (../shared/corpus/coredata-stores)")
            return
        }
        let decoded = try CoreDataModelCache.model(fromCompressedArchive: CoreDataStoreModelCacheTests.modelCache(of: folder.appendingPathComponent(store)))
        let reference = try ManagedObjectModel.load(xcodeModelAt: folder.appendingPathComponent(model))
        func optionality(_ m: ManagedObjectModel) -> [String] {
            m.entities.flatMap { e in
                e.definition.attributes.map { "\(e.name).\($0.name) optional=\($0.isOptional)" }
                    + e.definition.relationships.map { "\(e.name).\($0.name) optional=\($0.isOptional)" }
            }
        }
        #expect(optionality(decoded) == optionality(reference))
    }
}
