import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Issue 34, item 6: a model naming a value transformer that is not registered loads, as in
/// Core Data: a warning names the file, entity and attribute; values read as the stored bytes
/// (shown decoded when they are a keyed archive or property list); writing a value that needs the
/// transformer is refused with its name. `--transformer` maps such a name to a built-in one, and
/// the constant's name (`NSUnarchiveFromDataTransformerName`) is read as its transformer.
///
/// No test registers `UnregisteredColors`; names that are mapped are unique per test, as the
/// registry is shared by the whole process.
@Suite struct UnregisteredTransformerTests {
    let dir = TemporaryDirectory()

    private static let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Doc" syncable="YES">
                <attribute name="colors" optional="YES" attributeType="Transformable" valueTransformerName="UnregisteredColors"/>
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    private func jsonModel(transformer: String, default value: String? = nil) throws -> ManagedObjectModel {
        let url = dir.file("doc-\(UUID().uuidString).json")
        let extra = value.map { #", "default": \#($0)"# } ?? ""
        try Data("""
            {"entities": [{"name": "Doc", "attributes": [{"name": "name", "type": "String"},
              {"name": "colors", "type": "Transformable", "valueTransformer": "\(transformer)"\(extra)}]}]}
            """.utf8).write(to: url)
        return try ManagedObjectModel.load(jsonAt: url)
    }

    /// A store of `model` with one `Doc` per entry of `stored`, whose `colors` column holds those
    /// bytes (written with SQL, as another program would).
    private func store(_ model: ManagedObjectModel, holding stored: [Data]) throws -> URL {
        let url = dir.file("docs-\(UUID().uuidString).sqlite")
        let store = try SQLiteStore(url: url, model: model)
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "w"))
        try context.performAndWait {
            for i in stored.indices { try context.insertObject(entityName: "Doc").setValue(.string("d\(i)"), forKey: "name") }
            try context.save()
        }
        try DatabaseQueue(path: url.path).write { db in
            for (i, bytes) in stored.enumerated() {
                try db.execute(sql: "UPDATE Doc SET colors = ? WHERE name = ?", arguments: [bytes, "d\(i)"])
            }
        }
        return url
    }

    private func docs(_ url: URL, _ model: ManagedObjectModel) throws -> (ObjectContext, [ManagedObject]) {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: model), name: "r"))
        let docs = try context.performAndWait { try context.fetch(FetchRequest(entityName: "Doc", sortDescriptors: [SortKey("name")])) }
        return (context, docs)
    }

    private static let plist = try! PropertyListSerialization.data(fromPropertyList: ["red": 1, "blue": [true]] as [String: Any], format: .binary, options: 0)
    private static let archive = try! NSKeyedArchiver.archivedData(withRootObject: ["green", "white"] as NSArray, requiringSecureCoding: false)
    private static let opaque = Data([0xde, 0xad, 0xbe, 0xef])

    @Test func anXcodeModelLoadsWithAWarningNamingFileLineEntityAndAttribute() throws {
        let contents = try XcodeFixtures.write(Self.xml, to: "Doc.xcdatamodel/contents", in: dir)
        let model = try ManagedObjectModel.load(xcodeModelAt: dir.file("Doc.xcdatamodel"))
        #expect(model.entity(named: "Doc")?.attribute("colors")?.valueTransformerName == "UnregisteredColors")
        let warnings = model.warnings.filter { $0.name == ModelWarning.unregisteredTransformer }
        #expect(warnings.map(\.message) == [
            "\(contents.path):4: attribute 'Doc.colors' names value transformer 'UnregisteredColors', which is not registered: "
                + "its values are read as the stored bytes (shown decoded when they are a keyed archive or property list), and writing one is refused",
        ])
    }

    @Test func aJSONModelLoadsWithAWarningNamingFileLineAndColumn() throws {
        let model = try jsonModel(transformer: "UnregisteredColors")
        let warning = try #require(model.warnings.first { $0.name == ModelWarning.unregisteredTransformer })
        #expect(warning.message.contains(".json:2:"))
        #expect(warning.message.contains("attribute 'Doc.colors' names value transformer 'UnregisteredColors'"))
    }

    @Test func storedBytesAreReadUnchangedAndShownDecoded() throws {
        let model = try jsonModel(transformer: "UnregisteredColors")
        let url = try store(model, holding: [Self.plist, Self.archive, Self.opaque])
        let (context, docs) = try docs(url, model)
        let (read, shown) = try context.performAndWait {
            (try docs.map { try $0.value(forKey: "colors") }, try docs.map { try $0.displayValue(forKey: "colors") })
        }
        #expect(read == [.data(Self.plist), .data(Self.archive), .data(Self.opaque)])
        #expect(shown == [.json(.object(["red": .number(1), "blue": .array([.bool(true)])])),
                          .json(.array([.string("green"), .string("white")])), .data(Self.opaque)])
    }

    @Test func writingAValueThatNeedsTheTransformerIsRefusedWithItsName() throws {
        let model = try jsonModel(transformer: "UnregisteredColors")
        let url = try store(model, holding: [Self.archive])
        let (context, docs) = try docs(url, model)
        let refusal = context.performAndWait { () -> String? in
            do { try docs[0].setValue(.json(.string("red")), forKey: "colors") } catch { return "\(error)" }
            return nil
        }
        #expect(refusal == "'Doc.colors': needs value transformer 'UnregisteredColors' to be written, and none is registered under that name")
        // Saving another attribute writes the stored bytes back unchanged.
        try context.performAndWait {
            try docs[0].setValue(.string("renamed"), forKey: "name")
            try context.save()
        }
        let bytes = try DatabaseQueue(path: url.path).read { db in try Data.fetchOne(db, sql: "SELECT colors FROM Doc") }
        #expect(bytes == Self.archive)
    }

    @Test func aDefaultThatNeedsTheTransformerIsRefusedAtSave() throws {
        let model = try jsonModel(transformer: "UnregisteredColors", default: #"{"red": 1}"#)
        let url = dir.file("defaults.sqlite")
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: model), name: "w"))
        let failure = try context.performAndWait { () -> ObjectValidationError? in
            _ = try context.insertObject(entityName: "Doc")
            do { try context.save() } catch let error as ObjectValidationError { return error }
            return nil
        }
        #expect(failure?.failures.map(\.key) == ["colors"])
        #expect(failure?.description.contains("value transformer 'UnregisteredColors'") == true)
    }

    @Test func aBatchInsertOfAValueThatNeedsTheTransformerIsRefused() throws {
        let model = try jsonModel(transformer: "UnregisteredColors")
        let store = try SQLiteStore(url: dir.file("batch.sqlite"), model: model)
        let coordinator = StoreCoordinator(store: store, name: "b")
        var request = BatchInsertRequest(entityName: "Doc", attributes: ["colors"])
        request.append([.json(.string("red"))])
        #expect(throws: BatchInsertError.invalidValue(entity: "Doc", row: 0, key: "colors",
                                                      reason: "needs value transformer 'UnregisteredColors' to be written, and none is registered under that name")) {
            try coordinator.batchInsert(request)
        }
    }

    @Test func theConstantsNameIsReadAsItsTransformer() throws {
        for name in ["NSUnarchiveFromDataTransformerName", "NSSecureUnarchiveFromDataTransformerName", "NSKeyedUnarchiveFromDataTransformerName"] {
            let model = try jsonModel(transformer: name)
            #expect(model.warnings.isEmpty, "\(name)")
            let url = try store(model, holding: [Self.plist])
            let (context, docs) = try docs(url, model)
            let read = try context.performAndWait { try docs[0].value(forKey: "colors") }
            #expect(read == .json(.object(["red": .number(1), "blue": .array([.bool(true)])])), "\(name)")
        }
    }

    @Test func aNameMappedToTheKeyedArchiveBuiltInReadsThroughItAndRefusesWrites() throws {
        let name = "MappedColors\(UUID().uuidString.prefix(8))"
        try AttributeTransformers.map(name, to: "keyed-archive")
        let model = try jsonModel(transformer: name)
        #expect(model.warnings.isEmpty)
        let url = try store(model, holding: [Self.archive])
        let (context, docs) = try docs(url, model)
        let read = try context.performAndWait { try docs[0].value(forKey: "colors") }
        #expect(read == .json(.array([.string("green"), .string("white")])))
        let refusal = context.performAndWait { () -> String? in
            do { try docs[0].setValue(.json(.string("red")), forKey: "colors") } catch { return "\(error)" }
            return nil
        }
        #expect(refusal?.contains("value transformer '\(name)' only reads values") == true)
        #expect(throws: AttributeTransformError.self) { try AttributeTransformers.map(name, to: "no-such-built-in") }
    }

    /// The corpus: SYNCPropertyMapper's model names its app's `DateStringTransformer`, which
    /// refused the whole model before.
    @Test func aCorpusModelNamingItsAppsTransformerLoads() throws {
        guard let corpus = ModelCorpus.directory else {
            print("skipped: corpus not present (../shared/corpus/models)")
            return
        }
        let original = corpus.appendingPathComponent("Foreverland__SYNCPropertyMapper/Tests/Models/Model.xcdatamodeld")
        let copy = dir.file("Model.xcdatamodeld")
        try FileManager.default.copyItem(at: original, to: copy)
        let model = try ManagedObjectModel.load(xcodeModelAt: copy)
        #expect(model.entity(named: "User")?.attribute("registeredTransformable")?.valueTransformerName == "DateStringTransformer")
        let warnings = model.warnings.filter { $0.name == ModelWarning.unregisteredTransformer }.map(\.message)
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix(copy.path + "/Model.xcdatamodel/contents:116: attribute 'User.registeredTransformable' names value transformer 'DateStringTransformer'") == true)
    }
}
