import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// A transformer that stores the JSON text backwards (so its bytes are recognisable).
private struct ReversedJSON: AttributeTransformer {
    func data(from value: JSONValue) throws -> Data { Data(value.jsonText.utf8.reversed()) }
    func value(from data: Data) throws -> JSONValue { try JSONValue(jsonText: String(decoding: data.reversed(), as: UTF8.self)) }
}

@Suite struct AttributeTransformerTests {
    let dir = TemporaryDirectory()

    private func model(transformer: String?) throws -> ManagedObjectModel {
        let named = transformer.map { #", "valueTransformer": "\#($0)""# } ?? ""
        return try ManagedObjectModel(ModelDefinition(jsonText: """
            {"entities": [{"name": "Doc", "attributes": [{"name": "name", "type": "String"},
              {"name": "info", "type": "Transformable"\(named)}]}]}
            """, path: "doc.json"))
    }

    /// Saves one `Doc` holding `info` and returns what the column holds and the value read back.
    private func roundTrip(_ model: ManagedObjectModel, _ info: JSONValue) throws -> (storage: String, bytes: Data?, read: Value) {
        let url = dir.file(UUID().uuidString + ".sqlite")
        let store = try SQLiteStore(url: url, model: model)
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "w"))
        try context.performAndWait {
            let doc = try context.insertObject(entityName: "Doc")
            try doc.setValues(["name": .string("d"), "info": .json(info)])
            try context.save()
        }
        let (storage, bytes) = try DatabaseQueue(path: url.path).read { db -> (String, Data?) in
            let row = try Row.fetchOne(db, sql: "SELECT typeof(info), info FROM Doc")!
            return (row[0], row[1] as Data?)
        }
        let reader = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: nil), name: "r"))
        let read = try reader.performAndWait { try reader.fetch(FetchRequest(entityName: "Doc"))[0].value(forKey: "info") }
        return (storage, bytes, read)
    }

    @Test func theDefaultTransformerStoresABinaryPropertyList() throws {
        let info = JSONValue.object(["tags": .array([.string("a"), .number(2), .bool(true)]), "size": .number(1.5)])
        let result = try roundTrip(try model(transformer: nil), info)
        #expect(result.storage == "blob")
        #expect(result.bytes.map { String(decoding: $0.prefix(8), as: UTF8.self) } == "bplist00")
        #expect(result.read == .json(info))
    }

    @Test func aRegisteredTransformerStoresWhatItMakes() throws {
        AttributeTransformers.register(ReversedJSON(), named: "ReversedJSON")
        let info = JSONValue.array([.string("x"), .null])
        let result = try roundTrip(try model(transformer: "ReversedJSON"), info)
        #expect(result.storage == "blob")
        #expect(result.bytes == Data(info.jsonText.utf8.reversed()))
        #expect(result.read == .json(info))
    }

    @Test func aValueThePropertyListCannotHoldIsKeptAsJSONText() throws {
        let info = JSONValue.array([.string("x"), .null])
        let result = try roundTrip(try model(transformer: "NSDictionaryTransformer"), info)
        #expect(result.storage == "text")
        #expect(result.read == .json(info))
    }

    @Test func coreDataBuiltInNamesLoadAndTheNameShapesTheVersionHash() throws {
        let plain = try model(transformer: nil)
        let named = try model(transformer: "NSSecureUnarchiveFromDataTransformer")
        #expect(plain.versionHash != named.versionHash)
        let reencoded = try ManagedObjectModel(ModelDefinition(jsonText: named.definition.jsonText(), path: "again.json"))
        #expect(reencoded == named && reencoded.versionHash == named.versionHash)
    }

    @Test func storesWrittenBeforeTransformersStillRead() throws {
        let url = dir.file("legacy.sqlite")
        let model = try model(transformer: nil)
        _ = try SQLiteStore(url: url, model: model)
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: #"INSERT INTO Doc (Z_PK, Z_ENT, Z_OPT, name, info) VALUES (1, 0, 1, 'old', '{"k":[1,2]}')"#)
        }
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: model), name: "r"))
        let value = try context.performAndWait { try context.fetch(FetchRequest(entityName: "Doc"))[0].value(forKey: "info") }
        #expect(value == .json(.object(["k": .array([.number(1), .number(2)])])))
    }
}
