import Foundation
import QuarryTestSupport
import Testing
@testable import Quarry

@Suite struct CoreDataModelCacheTests {
    typealias F = ModelArchiveFixture

    private static var library: [F.Entity] { [
        F.Entity(name: "Item", isAbstract: true, attributes: [
            F.Attribute(name: "title", code: 700, isOptional: false, defaultValue: "untitled"),
            F.Attribute(name: "created", code: 900),
        ]),
        F.Entity(name: "Book", parent: "Item", attributes: [
            F.Attribute(name: "pages", code: 200, defaultValue: 100),
            F.Attribute(name: "price", code: 400),
            F.Attribute(name: "rating", code: 500),
            F.Attribute(name: "weight", code: 600),
            F.Attribute(name: "isbn", code: 300),
            F.Attribute(name: "edition", code: 100),
            F.Attribute(name: "inPrint", code: 800, defaultValue: true),
            F.Attribute(name: "cover", code: 1000),
            F.Attribute(name: "id", code: 1100),
            F.Attribute(name: "link", code: 1200),
            F.Attribute(name: "extra", code: 1800),
            F.Attribute(name: "scratch", code: 0, isTransient: true),
        ], relationships: [
            F.Relationship(name: "authors", destination: "Author", inverse: "books", isOrdered: true),
            F.Relationship(name: "shelf", destination: "Shelf", inverse: "books", maxCount: 1, deleteRule: 0),
        ]),
        F.Entity(name: "Author", attributes: [F.Attribute(name: "name", code: 700)], relationships: [
            F.Relationship(name: "books", destination: "Book", inverse: "authors", deleteRule: 3),
        ]),
        F.Entity(name: "Shelf", relationships: [
            F.Relationship(name: "books", destination: "Book", inverse: "shelf", deleteRule: 2),
        ]),
    ] }

    @Test func decodesEntitiesAttributesAndRelationshipsOfAnArchivedModel() throws {
        let model = try CoreDataModelCache.model(fromArchive: F.archive(Self.library))
        #expect(model.warnings.isEmpty)
        let expected = try ManagedObjectModel(ModelDefinition(entities: [
            EntityDefinition(name: "Item", isAbstract: true, className: "Item", attributes: [
                AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: .string("untitled")),
                AttributeDescription(name: "created", type: .date),
            ]),
            EntityDefinition(name: "Book", parent: "Item", className: "Book", attributes: [
                AttributeDescription(name: "pages", type: .integer32, defaultValue: .integer(100)),
                AttributeDescription(name: "price", type: .decimal),
                AttributeDescription(name: "rating", type: .double),
                AttributeDescription(name: "weight", type: .float),
                AttributeDescription(name: "isbn", type: .integer64),
                AttributeDescription(name: "edition", type: .integer16),
                AttributeDescription(name: "inPrint", type: .boolean, defaultValue: .bool(true)),
                AttributeDescription(name: "cover", type: .binary),
                AttributeDescription(name: "id", type: .uuid),
                AttributeDescription(name: "link", type: .uri),
                AttributeDescription(name: "extra", type: .transformable),
                AttributeDescription(name: "scratch", type: .undefined, isTransient: true),
            ], relationships: [
                RelationshipDescription(name: "authors", destination: "Author", inverse: "books", isToMany: true, isOrdered: true),
                RelationshipDescription(name: "shelf", destination: "Shelf", inverse: "books", deleteRule: .noAction),
            ]),
            EntityDefinition(name: "Author", className: "Author", attributes: [AttributeDescription(name: "name", type: .string)], relationships: [
                RelationshipDescription(name: "books", destination: "Book", inverse: "authors", isToMany: true, deleteRule: .deny),
            ]),
            EntityDefinition(name: "Shelf", className: "Shelf", relationships: [
                RelationshipDescription(name: "books", destination: "Book", inverse: "shelf", isToMany: true, deleteRule: .cascade),
            ]),
        ]))
        #expect(model == expected)
    }

    @Test func theCompressedEntryPointInflatesFirst() throws {
        let archive = try F.archive(Self.library)
        let model = try CoreDataModelCache.model(fromCompressedArchive: KeyedArchiveFixture.deflate(archive))
        #expect(model == (try CoreDataModelCache.model(fromArchive: archive)))
    }

    @Test func anUnknownAttributeTypeCodeIsSkippedWithAWarning() throws {
        let model = try CoreDataModelCache.model(fromArchive: F.archive([
            F.Entity(name: "Thing", attributes: [F.Attribute(name: "shape", code: 2100), F.Attribute(name: "name", code: 700)]),
        ]))
        #expect(model.entity(named: "Thing")?.attributes.map(\.name) == ["name"])
        #expect(model.warnings.map(\.name) == ["coredata.unknown-attribute-type"])
        #expect(model.warnings.first?.message.contains("entity Thing, property shape") == true)
        #expect(model.warnings.first?.message.contains("2100") == true)
    }

    @Test func aFetchedPropertyIsSkippedWithAWarning() throws {
        let model = try CoreDataModelCache.model(fromArchive: F.archive([
            F.Entity(name: "Thing", attributes: [F.Attribute(name: "name", code: 700)], fetchedProperties: ["recent"]),
        ]))
        #expect(model.entity(named: "Thing")?.attributes.map(\.name) == ["name"])
        #expect(model.warnings.map(\.name) == ["coredata.fetched-property"])
    }

    @Test func aDefaultValueOfTheWrongKindIsDroppedWithAWarning() throws {
        let model = try CoreDataModelCache.model(fromArchive: F.archive([
            F.Entity(name: "Thing", attributes: [F.Attribute(name: "count", code: 100, defaultValue: "many")]),
        ]))
        #expect(model.entity(named: "Thing")?.attributes.first?.defaultValue == nil)
        #expect(model.warnings.map(\.name) == ["coredata.default-value"])
    }

    @Test func anUnknownDeleteRuleFallsBackToNullifyWithAWarning() throws {
        let model = try CoreDataModelCache.model(fromArchive: F.archive([
            F.Entity(name: "A", relationships: [F.Relationship(name: "b", destination: "B", maxCount: 1, deleteRule: 9)]),
            F.Entity(name: "B"),
        ]))
        #expect(model.entity(named: "A")?.relationships.first?.deleteRule == .nullify)
        #expect(model.warnings.map(\.name) == ["coredata.unknown-delete-rule"])
    }

    @Test func aRootOfAnotherClassIsRefused() throws {
        let data = try F.archive([F.Entity(name: "A")], rootClass: "NSPersistentStoreCoordinator")
        #expect(throws: CoreDataModelCacheError.unexpectedClass(expected: "NSManagedObjectModel", found: "NSPersistentStoreCoordinator", at: "$top.root")) {
            try CoreDataModelCache.model(fromArchive: data)
        }
    }

    @Test func aRelationshipToAMissingEntityIsAnInvalidModel() throws {
        let data = try F.archive([F.Entity(name: "A", relationships: [F.Relationship(name: "b", destination: "Nowhere", maxCount: 1)])])
        do {
            _ = try CoreDataModelCache.model(fromArchive: data)
            Issue.record("an invalid model was accepted")
        } catch {
            guard case .invalidModel(let reason) = error else { Issue.record("got \(error)"); return }
            #expect(reason.contains("Nowhere"))
        }
    }

    @Test func errorMessagesNameThePathAtFault() {
        let error = CoreDataModelCacheError.wrongType(expected: "an array", found: "a string", at: "$top.root.NSEntities")
        #expect(error.description == "model cache: at $top.root.NSEntities: expected an array, found a string")
    }
}
