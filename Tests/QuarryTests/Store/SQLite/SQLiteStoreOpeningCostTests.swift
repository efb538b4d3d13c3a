import Foundation
import GRDB
import Testing
@testable import Quarry
import QuarryTestSupport

/// What opening a store costs beyond the store itself: looks taken again only when the files
/// changed, the recorded model read by a look alone, and a log emptied for the next program.
@Suite("SQLite store: looks before opening, the recorded model, an emptied log")
struct SQLiteStoreOpeningCostTests {
    @Test("a look at unchanged files answers as before; another file put in its place is looked at again")
    func looksFollowTheFiles() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("store.sqlite")
        let model = TestModels.tickers()
        do { _ = try SQLiteStore(url: url, model: model) }
        let first = try SQLiteStore.peek(path: url.path)
        let again = try SQLiteStore.peek(path: url.path)
        #expect(first.metadata?.identifier != nil)
        #expect(again.metadata?.identifier == first.metadata?.identifier)

        // Another store file put in its place (a new inode): the next look sees it.
        let other = dir.file("other.sqlite")
        do { _ = try SQLiteStore(url: other, model: model) }
        let otherID = try SQLiteStore.peek(path: other.path).metadata?.identifier
        try FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: other, to: url)
        #expect(try SQLiteStore.peek(path: url.path).metadata?.identifier == otherID)
        #expect(otherID != first.metadata?.identifier)

        // A database Quarry did not make in its place.
        try FileManager.default.removeItem(at: url)
        try DatabaseQueue(path: url.path).write { try $0.execute(sql: "CREATE TABLE notes (body TEXT)") }
        let foreign = try SQLiteStore.peek(path: url.path)
        #expect(foreign.metadata == nil)
        #expect(foreign.hasOtherTables)
    }

    @Test("the recorded model is read by a look alone, with the errors of a read-only open")
    func recordedModel() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("store.sqlite")
        let model = TestModels.tickers()
        do { _ = try SQLiteStore(url: url, model: model) }
        #expect(try SQLiteStore.recordedModel(url: url).versionHash == model.versionHash)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"), "the look created a log")

        #expect { try SQLiteStore.recordedModel(url: dir.file("missing.sqlite")) } throws: { error in
            guard case StoreError.cannotOpen = error else { return false }
            return true
        }
        let foreign = dir.file("foreign.sqlite")
        try DatabaseQueue(path: foreign.path).write { try $0.execute(sql: "CREATE TABLE notes (body TEXT)") }
        #expect { try SQLiteStore.recordedModel(url: foreign) } throws: { error in
            guard case StoreError.notAQuarryStore = error else { return false }
            return true
        }
        let empty = dir.file("empty.sqlite")
        try DatabaseQueue(path: empty.path).write { try $0.execute(sql: "PRAGMA user_version = 1") }
        #expect { try SQLiteStore.recordedModel(url: empty) } throws: { error in
            guard case StoreError.missingMetadata = error else { return false }
            return true
        }
    }

    @Test("checkpointing with truncation leaves an empty log and every commit in the file")
    func truncatedLog() throws {
        let dir = TemporaryDirectory()
        let url = dir.file("store.sqlite")
        let store = try SQLiteStore(url: url, model: TestModels.tickers())
        let make = ChangeMaker(model: store.model)
        _ = try store.insert((0..<500).map { make.insert("Sector", ["name": .string("S\($0)")]) })
        let logSize = { ((try? FileManager.default.attributesOfItem(atPath: url.path + "-wal")[.size]) as? NSNumber)?.intValue ?? 0 }
        #expect(logSize() > 0)
        #expect(try store.checkpointTruncatingLog())
        #expect(logSize() == 0)
        // The file alone (copied without its log) holds the rows.
        let copy = dir.file("copy.sqlite")
        try FileManager.default.copyItem(at: url, to: copy)
        #expect(try DatabaseQueue(path: copy.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM Sector") } == 500)

        let readOnly = try SQLiteStore(url: url, model: nil, options: .init(readOnly: true))
        #expect(try readOnly.checkpointTruncatingLog() == false, "a read-only store never checkpoints")

        // A reader holding an older state: the log cannot be emptied; nothing fails or is lost.
        var options = SQLiteStore.Options()
        options.busyTimeout = 0.05
        let writer = try SQLiteStore(url: url, model: nil, options: options)
        let reader = try DatabaseQueue(path: url.path)
        try reader.inDatabase { db in
            try db.execute(sql: "BEGIN")
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM Sector")
            let more = ChangeMaker(model: writer.model)
            _ = try writer.insert([more.insert("Sector", ["name": .string("late")])])
            #expect(try writer.checkpointTruncatingLog() == false)
            try db.execute(sql: "COMMIT")
        }
        #expect(try DatabaseQueue(path: url.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM Sector") } == 501)
    }
}
