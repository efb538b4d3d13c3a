import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// A creator context overwrites all the way to disk, even over a stale main context, and a
/// failed save leaves nothing behind in main.
@Suite("Creator context: overwrite through to the store")
struct CreatorSaveThroughTests {
    enum Backing: CaseIterable, CustomStringConvertible {
        case sqlite, inMemory
        var description: String { self == .sqlite ? "SQLite" : "in memory" }
    }

    /// A stack whose main context never hears of `otherWrite`: for SQLite the write goes through
    /// a second stack on the same file (another process, in effect); in memory the live merge is
    /// paused and the write goes through the writer coordinator.
    struct StaleMain {
        let directory = TemporaryDirectory()
        let stack: PersistentStack
        let other: PersistentStack?
        let id: ObjectID

        init(_ backing: Backing, busyTimeout: Double = 5) throws {
            var options = PersistentStack.Options()
            options.storeURL = directory.file("stale.sqlite")
            options.inMemory = backing == .inMemory
            options.mergesIncomingSavedObjects = backing == .sqlite
            options.busyTimeout = busyTimeout
            stack = try PersistentStack(model: TestModels.tickers(), options: options)
            other = backing == .sqlite ? try PersistentStack(model: TestModels.tickers(), options: options) : nil
            let importer = stack.importerContext()
            id = try importer.performAndWait {
                let t = try importer.insert(Ticker.self)
                t.symbol = "T"; t.name = "Alpha"; t.price = 1; t.volume = 10
                try importer.save()
                return t.objectID
            }
        }

        /// Writes `values` to the row the way another process would.
        func otherWrite(_ values: [String: Value]) throws {
            let writer = (other ?? stack).importerContext()
            try writer.performAndWait {
                try writer.existingObject(with: id).setValues(values)
                try writer.save()
            }
        }

        /// The row's values as the store has them now.
        func stored(_ key: String) throws -> Value {
            let reader = ObjectContext(concurrencyType: .privateQueue, coordinator: stack.writerCoordinator)
            return try reader.performAndWait { try reader.existingObject(with: id).value(forKey: key) }
        }
    }

    @Test("the creator's changed properties overwrite another writer's newer values; the others keep theirs",
          arguments: Backing.allCases)
    func overwritesOverStaleMain(backing: Backing) async throws {
        let f = try StaleMain(backing)
        let report = try await MainActor.run { () throws -> SaveReport in
            _ = try f.stack.mainContext.existingObject(with: f.id).value(forKey: "price")  // main loads version 1
            let creator = f.stack.creatorContext()
            let edited = try creator.existingObject(with: f.id)
            try f.otherWrite(["price": .double(42), "name": .string("Beta")])
            try edited.setValues(["price": .double(5), "volume": .integer(11)])
            return try creator.saveAndReport()
        }
        #expect(try f.stored("price") == .double(5))
        #expect(try f.stored("volume") == .integer(11))
        #expect(try f.stored("name") == .string("Beta"))
        #expect(report.overwritten == [OverwrittenValue(objectID: f.id, entityName: "Ticker", property: "price",
                                                        overwritten: .double(42), written: .double(5))])
        await MainActor.run { #expect(!f.stack.mainContext.hasChanges) }
    }

    @Test("a creator save over an unchanged row reports no overwrites", arguments: Backing.allCases)
    func noOverwriteWithoutOtherWriter(backing: Backing) async throws {
        let f = try StaleMain(backing)
        let report = try await MainActor.run { () throws -> SaveReport in
            let creator = f.stack.creatorContext()
            try creator.existingObject(with: f.id).setValue(.double(5), forKey: "price")
            return try creator.saveAndReport()
        }
        #expect(report.overwritten.isEmpty)
        #expect(try f.stored("price") == .double(5))
    }

    @Test("a creator save that fails on a locked store leaves nothing pending in main; the next save writes only its row")
    func failedSaveLeavesNothingBehind() async throws {
        let f = try StaleMain(.sqlite, busyTimeout: 0.05)
        let importer = f.stack.importerContext()
        let second = try importer.performAndWait {
            let t = try importer.insert(Ticker.self); t.symbol = "U"; t.price = 2
            try importer.save()
            return t.objectID
        }
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let lock = try DatabaseQueue(path: f.directory.file("stale.sqlite").path, configuration: configuration)
        try await lock.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
        try await MainActor.run { () throws -> Void in
            let creator = f.stack.creatorContext()
            try creator.existingObject(with: f.id).setValue(.double(99), forKey: "price")
            #expect(throws: StoreError.self) { try creator.save() }
            #expect(!f.stack.mainContext.hasChanges)
            #expect(creator.hasChanges)  // the form can still retry
        }
        try await lock.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        try await MainActor.run { () throws -> Void in
            let creator = f.stack.creatorContext()
            try creator.existingObject(with: second).setValue(.double(3), forKey: "price")
            guard case .saved(let changes) = try creator.save() else { Issue.record("not saved"); return }
            #expect(changes.updated == [second])
        }
        #expect(try f.stored("price") == .double(1))
    }
}
