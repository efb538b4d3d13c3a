import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Transient attributes of Xcode's type "Undefined" (issue 16, real-world item 2): they load,
/// hold any value in memory like other transients and are never stored; a stored one is refused
/// naming the file, the entity and the attribute.
@Suite struct XcodeUndefinedAttributeTests {
    let dir = TemporaryDirectory()

    /// Xcode writes `attributeType="Undefined"`, or leaves the type out altogether.
    private let body = """
        <entity name="Sketch" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="cache" optional="YES" transient="YES" attributeType="Undefined"/>
            <attribute name="scratch" optional="YES" transient="YES"/>
            <attribute name="note" optional="YES" transient="YES" attributeType="String"/>
        </entity>
        """

    private func model() throws -> ManagedObjectModel {
        let (definition, warnings) = try ModelDefinition.xcodeContents(Data(XcodeFixtures.document(body).utf8), path: "Sketch.xcdatamodel/contents")
        return try ManagedObjectModel(definition, warnings: warnings)
    }

    @Test func transientUndefinedAttributesLoad() throws {
        let entity = try #require(try model().entity(named: "Sketch"))
        for name in ["cache", "scratch"] {
            let attribute = try #require(entity.attribute(name))
            #expect(attribute.type == .undefined)
            #expect(attribute.isTransient)
        }
    }

    @Test func theyHoldAnyValueInMemoryAndAreNeverStored() throws {
        let model = try model()
        let url = dir.file("sketch.sqlite")
        let stack = try PersistentStack(model: model, storeURL: url)
        let context = stack.importerContext()
        let id = try context.performAndWait {
            let sketch = try context.insertObject(entityName: "Sketch")
            sketch["title"] = .string("s")
            sketch["cache"] = .data(Data([1, 2, 3]))
            sketch["cache"] = .integer(7)
            sketch["scratch"] = .string("any text")
            sketch["note"] = .string("a note")
            #expect(sketch["cache"] == .integer(7))
            #expect(sketch["scratch"] == .string("any text"))
            try context.save()
            // Like the String transient beside them, they stay on the object that holds them.
            #expect(sketch["note"] == .string("a note"))
            #expect(sketch["cache"] == .integer(7))
            #expect(sketch["scratch"] == .string("any text"))
            return sketch.objectID
        }
        let store = try #require(stack.writerCoordinator.store as? SQLiteStore)
        #expect(try store.pool.read { try $0.columns(in: "Sketch").map(\.name) } == ["Z_PK", "Z_ENT", "Z_OPT", "title"])
        let other = stack.importerContext()
        try other.performAndWait {
            let sketch = other.object(with: id)
            #expect(sketch["title"] == .string("s"))
            #expect(sketch["cache"] == .null && sketch["scratch"] == .null && sketch["note"] == .null, "never stored")
            // A predicate on one reads what the store holds for it: nothing.
            let none = try other.fetch(Quarry.FetchRequest(entityName: "Sketch", predicate: try ObjectPredicate(format: "scratch == nil")))
            #expect(none.count == 1)
        }
        // The model copy in the file keeps the type, so the store opens without a model file.
        #expect(try SQLiteStore(url: url, model: nil).model == model)
    }

    @Test func aStoredUndefinedAttributeIsRefusedNamingFileEntityAndAttribute() throws {
        let error = #expect(throws: ModelError.self) {
            try ModelDefinition.xcodeContents(Data(XcodeFixtures.document("""
                <entity name="Sketch" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="blob" optional="YES" attributeType="Undefined"/>
                </entity>
                """).utf8), path: "Sketch.xcdatamodel/contents")
        }
        guard case .malformedFile(let path, let line, _, let reason)? = error else {
            Issue.record("expected malformedFile, got \(String(describing: error))"); return
        }
        #expect(path == "Sketch.xcdatamodel/contents")
        #expect(line == 5)
        #expect(reason.contains("'Sketch.blob' has type Undefined but is not transient"))
    }

    @Test func modelsFromOtherLoadersAreCheckedToo() {
        #expect(throws: ModelError.undefinedNotTransient(entity: "E", attribute: "x")) {
            var builder = ModelBuilder()
            builder.entity("E") { $0.attribute("x", .undefined) }
            _ = try builder.build()
        }
        #expect(throws: ModelError.self) {
            _ = try ModelDefinition(jsonText: #"{"entities": [{"name": "E", "attributes": [{"name": "x", "type": "Undefined", "transient": true, "default": 1}]}]}"#, path: "m.json")
        }
    }
}
