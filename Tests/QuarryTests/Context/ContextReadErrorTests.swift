import Foundation
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

/// An in-memory store whose reads fail while ``failsReads`` is set: the store a context reads
/// from when a disk errs or a file is replaced under it.
private final class FailingReadStore: ForwardingStore, Sendable {
    let base: InMemoryStore
    private let failing = Mutex(false)

    init(model: ManagedObjectModel) { base = InMemoryStore(model: model) }

    /// Whether reads throw.
    var failsReads: Bool {
        get { failing.withLock { $0 } }
        set { failing.withLock { $0 = newValue } }
    }

    private func check() throws {
        if failsReads { throw StoreError.cannotOpen(path: "memory", reason: "disk I/O error (test)") }
    }

    func snapshots(for ids: [ObjectID]) throws -> [ObjectID: Snapshot] { try check(); return try base.snapshots(for: ids) }
    func relatedIDs(of id: ObjectID, relationship: Int) throws -> [ObjectID] {
        try check(); return try base.relatedIDs(of: id, relationship: relationship)
    }
}

/// A read a context needs and cannot make is a value someone sees (issue 36, item 5): never an
/// object taken for deleted, a to-many taken for empty, or a cascade silently skipped.
@Suite("Context read errors: failures are values, never a wrong state")
struct ContextReadErrorTests {
    /// A store holding one sector with two tickers, and the sector's ID.
    private static func seeded() throws -> (FailingReadStore, ObjectID) {
        let store = FailingReadStore(model: TestModels.tickers())
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "seed"))
        let id = try context.performAndWait {
            let sector = try context.insert(Sector.self); sector.name = "Tech"
            for symbol in ["ACME", "BOLT"] {
                let t = try context.insert(Ticker.self); t.symbol = symbol; t.sector = sector
            }
            try context.save()
            return sector.objectID
        }
        return (store, id)
    }

    private static func freshContext(_ store: FailingReadStore) -> ObjectContext {
        ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "reader"))
    }

    @Test("a fault whose row cannot be read stays a fault, is not taken for deleted, and reads again later")
    func unreadableFault() throws {
        let (store, id) = try Self.seeded()
        let context = Self.freshContext(store)
        try context.performAndWait {
            let sector = try #require(context.object(with: id) as? Sector)
            store.failsReads = true
            #expect(try sector.value(forKey: "name") == .null)
            #expect(!sector.isDeleted)
            let error = try #require(context.lastReadError)
            #expect(error.operation == "loading a fault")
            #expect(error.objectIDs == [id])
            #expect(error.description.contains("disk I/O error (test)"))
            store.failsReads = false
            #expect(sector.name == "Tech")
        }
    }

    @Test("a delete whose cascade cannot read its destinations is refused by the save, naming why")
    func unreadableDeleteRules() throws {
        let (store, id) = try Self.seeded()
        let context = Self.freshContext(store)
        try context.performAndWait {
            let sector = try #require(context.object(with: id) as? Sector)
            #expect(sector.name == "Tech")
            store.failsReads = true
            context.delete(sector)
            #expect(context.lastReadError?.operation == "applying delete rules")
            store.failsReads = false
            let error = #expect(throws: ObjectValidationError.self) { try context.save() }
            #expect(error?.failures.contains { $0.reason.contains("delete rules could not be applied") } == true)
        }
        // Nothing was deleted: the sector and both tickers are still stored.
        #expect(try store.count(for: StoreQuery(entity: store.model.entities[store.model.entity(named: "Ticker")!.index])) == 2)
        #expect(try store.snapshots(for: [id])[id] != nil)
    }

    @Test("a to-many with a count rule that cannot be read fails validation instead of counting as empty")
    func unreadableToManyValidation() throws {
        var builder = ModelBuilder()
        builder.entity("Team") { e in
            e.attribute("name", .string)
            e.toMany("members", destination: "Member", inverse: "team", minCount: 1)
        }
        builder.entity("Member") { e in
            e.attribute("name", .string)
            e.toOne("team", destination: "Team", inverse: "members")
        }
        let store = FailingReadStore(model: try builder.build())
        let seeding = Self.freshContext(store)
        let id = try seeding.performAndWait {
            let team = try seeding.insertObject(entityName: "Team")
            let member = try seeding.insertObject(entityName: "Member")
            try member.setObject(team, forKey: "team")
            try seeding.save()
            return team.objectID
        }
        let context = Self.freshContext(store)
        context.performAndWait {
            let team = context.object(with: id)
            #expect(team.validationFailures().isEmpty)
            context.refresh(team, mergeChanges: false)
            _ = try? team.value(forKey: "name") // fulfils the fault before reads fail
            store.failsReads = true
            let failures = team.validationFailures()
            store.failsReads = false
            #expect(failures.map(\.key) == ["members"])
            #expect(failures.first?.reason.contains("could not be checked") == true)
        }
    }

    @Test("a fetched-results controller reports a batch it could not load")
    func batchFaultFailure() throws {
        let (store, _) = try Self.seeded()
        let context = Self.freshContext(store)
        try context.performAndWait {
            var request = FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")])
            request.fetchBatchSize = 1
            let controller = try FetchedResultsController(fetchRequest: request, context: context, sectionNameKeyPath: nil)
            try controller.performFetch()
            store.failsReads = true
            let object = controller.object(at: RowPath(section: 0, row: 1))
            store.failsReads = false
            #expect(object.isFault)
            guard case .batchFaultFailed(let entity, let start, let rows, let reason)? = controller.lastError else {
                Issue.record("expected batchFaultFailed, got \(String(describing: controller.lastError))")
                return
            }
            #expect(entity == "Ticker" && start == 1 && rows == 1)
            #expect(reason.contains("disk I/O error (test)"))
        }
    }
}
