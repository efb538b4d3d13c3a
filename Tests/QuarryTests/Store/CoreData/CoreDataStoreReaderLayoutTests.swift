import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// The ``ForeignSource`` of a hand-made Core Data-layout store selects the right values:
/// inheritance by `Z_ENT`, sibling columns told apart by their data, entity columns, UUID
/// bytes, `Z_FOK_` orders, join tables and persistent history.
@Suite struct CoreDataStoreReaderLayoutTests {
    let dir = TemporaryDirectory()

    func store(history: Bool = true) throws -> URL {
        let url = try CoreDataStoreFixture.folder(in: dir).appendingPathComponent("Pets.sqlite")
        try CoreDataStoreLayoutFixture.write(url, history: history)
        return url
    }

    static func read(_ url: URL) throws -> CoreDataStoreDescription {
        try CoreDataStoreFixture.read(url, candidates: [ModelVersionHistory.Version(name: "Pets 1", model: CoreDataStoreLayoutFixture.model())])
    }

    @Test func isCoreDataStoreNeedsPrimaryKeyAndMetadataTables() throws {
        let url = try store()
        #expect(try CoreDataStoreFixture.withReadOnly(url) { try CoreDataStoreReader.isCoreDataStore($0) })
        let plain = try CoreDataStoreFixture.folder(in: dir).appendingPathComponent("plain.sqlite")
        try CoreDataStoreFixture.withWritable(plain) { try $0.execute(sql: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER)") }
        #expect(try CoreDataStoreFixture.withReadOnly(plain) { try CoreDataStoreReader.isCoreDataStore($0) } == false)
    }

    @Test func aMatchingCandidateIsChosenAndSaid() throws {
        let d = try Self.read(store())
        #expect(d.modelSource == "version 'Pets 1' of --model (its entity and property names match the store's)")
        #expect(d.warnings.isEmpty, "\(d.warnings)")
        #expect(d.storeIdentifier == UUID(uuidString: "11111111-2222-3333-4444-555555555555"))
    }

    @Test func subEntitiesShareTheirRootTableAndSiblingColumnsAreToldApartByTheirData() throws {
        let url = try store()
        let d = try Self.read(url)
        let m = d.model
        let cat = m.entity(named: "Cat")!, dog = m.entity(named: "Dog")!, animal = m.entity(named: "Animal")!
        try CoreDataStoreFixture.withReadOnly(url) { db in
            let cats = try Row.fetchAll(db, sql: CoreDataStoreFixture.select(d, entity: "Cat", keys: [
                .attribute(entity: cat.index, name: "toy"), .attribute(entity: cat.index, name: "lives"), .attribute(entity: animal.index, name: "name")]))
            #expect(cats.count == 1)
            #expect(cats.first.map { [$0[0] as Int64, $0[1] as Int64, $0[3] as Int64] } == [1, Int64(cat.index), 9])
            #expect(cats.first?[2] as String? == "mouse")
            #expect(cats.first?[4] as String? == "Tom")
            let dogs = try Row.fetchAll(db, sql: CoreDataStoreFixture.select(d, entity: "Dog", keys: [
                .attribute(entity: dog.index, name: "toy"), .attribute(entity: dog.index, name: "born")]))
            #expect(dogs.count == 1)
            #expect(dogs.first?[2] as String? == "bone")
            #expect(dogs.first?[3] as Double? == 700000000)
            let animals = try Row.fetchAll(db, sql: CoreDataStoreFixture.select(d, entity: "Animal"))
            #expect(animals.map { $0[1] as Int } == [cat.index, dog.index, animal.index])
        }
    }

    @Test func uuidBytesToOneEntityColumnsAndForeignKeyOrdersReadInQuarrysForm() throws {
        let url = try store()
        let d = try Self.read(url)
        let owner = d.model.entity(named: "Owner")!, animal = d.model.entity(named: "Animal")!
        try CoreDataStoreFixture.withReadOnly(url) { db in
            let rows = try Row.fetchAll(db, sql: CoreDataStoreFixture.select(d, entity: "Owner", keys: [
                .attribute(entity: owner.index, name: "id"), .toOneKey(entity: owner.index, relationship: "favorite"),
                .toOneEntity(entity: owner.index, relationship: "favorite")]))
            #expect(rows.first?[2] as String? == CoreDataStoreLayoutFixture.ownerUUID)
            #expect(rows.first?[3] as Int64? == 2)
            #expect(rows.first?[4] as Int? == d.model.entity(named: "Dog")!.index)
            let pets = try Row.fetchAll(db, sql: CoreDataStoreFixture.select(d, entity: "Animal", keys: [
                .toOneKey(entity: animal.index, relationship: "owner"), .order(entity: animal.index, inverse: "owner")]))
            #expect(pets.map { $0[3] as Int64? } == [2048, 1024, nil])
        }
    }

    @Test func orderedManyToManyPairsComeFromTheJoinTableSeenFromEitherSide() throws {
        let url = try store()
        let d = try Self.read(url)
        let tag = Int64(d.model.entity(named: "Tag")!.index)
        let cat = Int64(d.model.entity(named: "Cat")!.index), dog = Int64(d.model.entity(named: "Dog")!.index)
        try CoreDataStoreFixture.withReadOnly(url) { db in
            let tags = try CoreDataStoreFixture.pairs(db, d, entity: "Animal", relationship: "tags")
            let animals = try CoreDataStoreFixture.pairs(db, d, entity: "Tag", relationship: "animals")
            #expect(tags == [[1, 1, 1, tag], [1, 2, 2, tag], [2, 2, 1, tag]])
            #expect(animals == [[1, 1, nil, cat], [2, 1, nil, cat], [2, 2, nil, dog]])
        }
    }

    @Test func persistentHistoryReadsAsTransactionsWithTheirChanges() throws {
        let url = try store()
        let d = try Self.read(url)
        #expect(d.historyEntityNames == CoreDataHistory.Names(transaction: "History", change: "HistoryChange"))
        let t = d.model.entity(named: "History")!, c = d.model.entity(named: "HistoryChange")!
        try CoreDataStoreFixture.withReadOnly(url) { db in
            let transactions = try Row.fetchAll(db, sql: CoreDataStoreFixture.select(d, entity: "History", keys: [
                .attribute(entity: t.index, name: "timestamp"), .attribute(entity: t.index, name: "author"),
                .attribute(entity: t.index, name: "contextName"), .attribute(entity: t.index, name: "bundleID")]))
            #expect(transactions.count == 1)
            #expect(transactions.first?[2] as Double? == 700000000.5)
            #expect(transactions.first.map { [$0[3] as String?, $0[4] as String?, $0[5] as String?] } == ["app", "viewContext", "com.example"])
            let changes = try Row.fetchAll(db, sql: CoreDataStoreFixture.select(d, entity: "HistoryChange", keys: [
                .attribute(entity: c.index, name: "entityName"), .attribute(entity: c.index, name: "changeType"),
                .attribute(entity: c.index, name: "objectPrimaryKey"), .toOneKey(entity: c.index, relationship: "transaction")]))
            #expect(changes.map { [$0[2] as String?, $0[3] as String?] } == [["Cat", "insert"], ["Tag", "delete"]])
            #expect(changes.map { [$0[4] as Int64?, $0[5] as Int64?] } == [[1, 1], [9, 1]])
        }
    }

    @Test func historyEntitiesAvoidTheAppsOwnNames() {
        #expect(CoreDataHistory.names(avoiding: ["Animal"]).transaction == "History")
        #expect(CoreDataHistory.names(avoiding: ["History"]) == CoreDataHistory.Names(transaction: "CoreDataHistory", change: "CoreDataHistoryChange"))
        #expect(CoreDataHistory.names(avoiding: ["HistoryChange", "CoreDataHistory"]).transaction == "QuarryHistory")
    }

    @Test func withoutModelOrCacheTheModelIsRecoveredFromTheTablesWithAWarning() throws {
        let url = try store(history: false)
        let d = try CoreDataStoreFixture.read(url)
        #expect(d.modelSource == "the store's tables")
        #expect(d.warnings.contains { $0.contains("no Z_MODELCACHE") })
        #expect(d.warnings.contains { $0.contains("recovered from the store's tables") })
        #expect(d.model.entities.map(\.name) == ["Animal", "Cat", "Dog", "Owner", "Tag"])
        let animal = d.model.entity(named: "Animal")!
        #expect(Set(animal.attributes.map(\.name)) == ["lives", "born", "name", "toy", "toy1"])
        #expect(animal.attribute("born")?.type == .date)
        #expect(animal.relationship("owner")?.destination == "Owner")
        #expect(d.model.entity(named: "Cat")?.parentName == "Animal")
        try CoreDataStoreFixture.withReadOnly(url) { db in
            let rows = try Row.fetchAll(db, sql: CoreDataStoreFixture.select(d, entity: "Animal", keys: [.attribute(entity: animal.index, name: "toy1")]))
            #expect(rows.map { $0[2] as String? } == ["mouse", nil, nil])
        }
    }

    @Test func aCandidateThatDoesNotFitIsSkippedWithAWarning() throws {
        let url = try store(history: false)
        let other = try ManagedObjectModel(ModelDefinition(entities: [EntityDefinition(name: "Invoice", attributes: [AttributeDescription(name: "total", type: .double)])]))
        let d = try CoreDataStoreFixture.read(url, candidates: [ModelVersionHistory.Version(name: "Billing", model: other)])
        #expect(d.modelSource == "the store's tables")
        #expect(d.warnings.contains { $0.hasPrefix("--model skipped") && $0.contains("Billing") })
    }
}
