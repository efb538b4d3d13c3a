import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Issue 34, item 4: `export` writes a Core Data store's Transformable values as the browser
/// decodes them (a keyed archive or a property list), not `null`: JSON as structured values,
/// CSV as their JSON text.
@Suite("Export of a Core Data store's Transformable values")
struct ExportTransformableTests {
    /// What the browser shows for `attribute` of each object of `entity`: the objects' values.
    func shownValues(_ coordinator: StoreCoordinator, entity: String, attribute: String) throws -> [Value] {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        return try context.performAndWait {
            try context.fetch(FetchRequest(entityName: entity)).sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
                .map { try $0.value(forKey: attribute) }
        }
    }

    /// `entity`'s `columns` exported through `formatter`, in primary-key order.
    func export(_ coordinator: StoreCoordinator, entity: String, formatter: some EntityFormatter, in directory: TemporaryDirectory) async throws -> String {
        let out = directory.file("\(UUID().uuidString).out")
        try await ExportOperation(coordinator: coordinator, entityName: entity, destination: .file(out), formatter: formatter)
            .run(on: OperationQueue())
        return try String(contentsOf: out, encoding: .utf8)
    }

    /// The JSON export's text of `value`.
    func json(_ value: Value) -> String {
        var bytes: [UInt8] = []
        JSONFormatter.appendValue(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("a keyed archive of strings exports as the array the browser shows, in JSON Lines, a JSON array and CSV")
    func keyedArchiveFromAFixture() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Library.sqlite")
        try CoreDataFixture.library.write(to: url)
        let coordinator = StoreCoordinator(store: try SQLiteStore(foreign: ForeignDatabase.open(path: url.path)))
        let shown = try shownValues(coordinator, entity: "Film", attribute: "languages")
        #expect(shown == [.json(.array([.string("ru"), .string("en")]))])

        let lines = try await export(coordinator, entity: "Film", formatter: JSONFormatter(layout: .lines, columns: ["title", "languages"]),
                                     in: directory)
        #expect(lines == "{\"title\":\"Stalker\",\"languages\":[\"ru\",\"en\"]}\n")
        let array = try await export(coordinator, entity: "Film", formatter: JSONFormatter(layout: .array, columns: ["languages"]),
                                     in: directory)
        #expect(array.contains("{\"languages\":[\"ru\",\"en\"]}"), "\(array)")
        let csv = try await export(coordinator, entity: "Film", formatter: CSVFormatter(columns: ["title", "languages"]), in: directory)
        #expect(csv == "title,languages\r\nStalker,\"[\"\"ru\"\",\"\"en\"\"]\"\r\n")
        // Through a sub-entity's parent too (the Item table holds every item).
        let items = try await export(coordinator, entity: "Item", formatter: JSONFormatter(layout: .lines, columns: ["title"]), in: directory)
        #expect(items.split(separator: "\n").count == 3)
    }

    @Test("every Transformable value of the real Core Data stores exports as the browser shows it",
          arguments: CoreDataStoreModelCacheTests.stores.map(\.store))
    func realStores(store: String) async throws {
        let directory = TemporaryDirectory()
        guard let copy = try CoreDataStoreFixture.copy(store, into: directory) else {
            print("skipped: corpus not present (../shared/corpus/coredata-stores)")
            return
        }
        let coordinator = StoreCoordinator(store: try SQLiteStore(foreign: ForeignDatabase.open(path: copy.path)))
        var decoded = 0
        for entity in coordinator.model.entities where !entity.isAbstract {
            for attribute in entity.attributes where attribute.type == .transformable && !attribute.isTransient {
                let shown = try shownValues(coordinator, entity: entity.name, attribute: attribute.name)
                    .map { "{\"\(attribute.name)\":\(json($0))}" }
                let exported = try await export(coordinator, entity: entity.name,
                                                formatter: JSONFormatter(layout: .lines, columns: [ExportColumn(attribute.name)]), in: directory)
                #expect(exported.split(separator: "\n").map(String.init).sorted() == shown.sorted(), "\(entity.name).\(attribute.name)")
                decoded += shown.filter { !$0.hasSuffix(":null}") }.count
            }
        }
        if store.contains("1.2.0") { #expect(decoded >= 14, "the 1.2.0 store's test hierarchies are keyed archives") }
    }
}
