import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// Issue 36 ("every failure is a value"): a transformable column of an SQLite store holding what
/// its transformer cannot read (bytes another program wrote, text that is not JSON) fails the
/// read with a ``ColumnDecodingError`` naming the column, never reads as `NULL`.
@Suite("SQLite: a transformable value that cannot be decoded is an error naming its column")
struct SQLiteColumnDecodingErrorTests {
    let dir = TemporaryDirectory()

    /// What another program left in the `colors` column.
    enum Stored: CaseIterable {
        /// Bytes the default transformer (a property list) cannot read.
        case opaqueBytes
        /// Text that is not JSON.
        case notJSON

        var value: DatabaseValue {
            switch self {
            case .opaqueBytes: return Data([0xde, 0xad, 0xbe, 0xef]).databaseValue
            case .notJSON: return "{not json".databaseValue
            }
        }

        /// What the error says was expected.
        var expected: String { self == .opaqueBytes ? "transformable" : "JSON" }
    }

    /// `Doc` (`name`, `colors`: transformable through the default transformer).
    private static func model() throws -> ManagedObjectModel {
        var builder = ModelBuilder()
        builder.entity("Doc") { e in
            e.attribute("name", .string)
            e.attribute("colors", .transformable)
        }
        return try builder.build()
    }

    /// A store Quarry made with `good` (colors `["red"]`) and `bad`, whose `colors` column then
    /// gets `stored`, written with SQL as another program would.
    private func makeStore(holding stored: Stored) throws -> (SQLiteStore, ObjectContext) {
        let url = dir.file("docs-\(UUID().uuidString).sqlite")
        let model = try Self.model()
        let writer = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: try SQLiteStore(url: url, model: model), name: "w"))
        try writer.performAndWait {
            for name in ["bad", "good"] {
                let doc = try writer.insertObject(entityName: "Doc")
                try doc.setValue(.string(name), forKey: "name")
                try doc.setValue(.json(.array([.string("red")])), forKey: "colors")
            }
            try writer.save()
        }
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE Doc SET colors = ? WHERE name = 'bad'", arguments: [stored.value])
        }
        let store = try SQLiteStore(url: url, model: model)
        return (store, ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "r")))
    }

    private static let byName = FetchRequest(entityName: "Doc", sortDescriptors: [SortKey("name")])

    /// Checks `error` is the decoding error of the `colors` column, with `reason` in its words.
    private static func expectColors(_ error: ColumnDecodingError?, expected: String, reason: String) {
        #expect(error?.column == "colors", "\(String(describing: error))")
        #expect(error?.expected == expected)
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix(#"column "colors" does not hold a"#) == true)
    }

    @Test("bytes the transformer cannot read: a fetch of whole objects throws, naming the column")
    func undecodableBytesFailTheFetch() throws {
        let (_, context) = try makeStore(holding: .opaqueBytes)
        var request = Self.byName
        request.returnsObjectsAsFaults = false
        let error = context.performAndWait { #expect(throws: ColumnDecodingError.self) { try context.fetch(request) } }
        Self.expectColors(error, expected: "transformable", reason: "cannot read the stored 4 bytes")
    }

    @Test("text that is not JSON: a fetch of whole objects throws, naming the column")
    func textThatIsNotJSONFailsTheFetch() throws {
        let (_, context) = try makeStore(holding: .notJSON)
        var request = Self.byName
        request.returnsObjectsAsFaults = false
        let error = context.performAndWait { #expect(throws: ColumnDecodingError.self) { try context.fetch(request) } }
        Self.expectColors(error, expected: "JSON", reason: "'{not json' is not JSON")
    }

    @Test("a fault that cannot be read stays a fault, the context's read error naming the column; the other object reads")
    func faultingFailsNamingTheColumn() throws {
        for stored in Stored.allCases {
            let (_, context) = try makeStore(holding: stored)
            try context.performAndWait {
                let docs = try context.fetch(Self.byName)
                try #require(docs.count == 2)
                #expect(try docs[0].value(forKey: "colors") == .null)
                #expect(docs[0].isFault)
                let error = try #require(context.lastReadError)
                #expect(error.operation == "loading a fault")
                #expect(error.objectIDs == [docs[0].objectID])
                #expect(error.reason.contains(#"column "colors""#), "\(error)")
                #expect(try docs[1].value(forKey: "colors") == .json(.array([.string("red")])))
            }
        }
    }

    @Test("a fetched-results controller reports the batch it cannot load, naming the column, instead of a nil value")
    func controllerReportsTheFailure() throws {
        let (_, context) = try makeStore(holding: .opaqueBytes)
        try context.performAndWait {
            let controller = try FetchedResultsController(fetchRequest: Self.byName, context: context)
            try controller.performFetch()
            #expect(controller.count == 2)
            let object = controller.object(at: RowPath(section: 0, row: 0))
            #expect(object.isFault)
            guard case .batchFaultFailed(let entity, _, _, let reason)? = controller.lastError else {
                Issue.record("no batch failure reported: \(String(describing: controller.lastError))")
                return
            }
            #expect(entity == "Doc")
            #expect(reason.contains(#"column "colors""#), "\(reason)")
        }
    }

    @Test("keyed reads of the column (a sort by it) throw, naming the column")
    func keyedReadsFail() throws {
        for stored in Stored.allCases {
            let expected = stored.expected
            let (store, _) = try makeStore(holding: stored)
            let query = StoreQuery(entity: try #require(store.model.entity(named: "Doc")))
            let fromIDs = #expect(throws: ColumnDecodingError.self) { try store.keyedIDs(for: query, keyPaths: ["name", "colors"]) }
            #expect(fromIDs?.column == "colors" && fromIDs?.expected == expected, "\(String(describing: fromIDs))")
            let fromCursor = #expect(throws: ColumnDecodingError.self) {
                try store.forEachKeyedRow(for: query, keyPaths: ["colors"]) { _ in }
            }
            #expect(fromCursor?.column == "colors" && fromCursor?.expected == expected, "\(String(describing: fromCursor))")
        }
    }

    @Test("keyed reads of readable transformable values give them as before")
    func keyedReadsOfGoodValues() throws {
        let (store, _) = try makeStore(holding: .opaqueBytes)
        let doc = try #require(store.model.entity(named: "Doc"))
        let query = StoreQuery(entity: doc, predicate: PredicateKey("name") == .string("good"))
        #expect(try store.keyedIDs(for: query, keyPaths: ["colors"]).map(\.keys) == [[.json(.array([.string("red")]))]])
        var values: [Value] = []
        try store.forEachKeyedRow(for: query, keyPaths: ["colors", "name"]) { row in
            values += [row.value(ofKey: 0), row.value(ofKey: 1)]
            #expect(row.kind(ofKey: 1) == .string)
        }
        #expect(values == [.json(.array([.string("red")])), .string("good")])
    }
}
