import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A PostgreSQL store takes its keys from its tables' sequences in blocks
/// (``PostgreSQLKeyBlocks``): keys stay consecutive within a store, two stores on one schema
/// never hand out the same key, a store made before blocks (a sequence counting by one) keeps
/// working, and a migration's sequences start above every key a block held.
@Suite("PostgreSQL keys in blocks", .serialized, .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLKeyBlocksTests {
    /// The keys of `count` sectors saved one save each.
    static func saveSectors(_ store: PostgreSQLStore, _ count: Int, named prefix: String) throws -> [Int64] {
        try (0..<count).map { try PostgreSQLScratchStore.saveSector(store, "\(prefix)\($0)").primaryKey }
    }

    @Test("single saves get consecutive keys; a big save takes whole blocks and keeps the rest")
    func consecutiveWithinAStore() throws {
        try PostgreSQLScratchStore(label: "keys").withStore { store in
            #expect(try Self.saveSectors(store, 3, named: "a") == [1, 2, 3])
            let sector = store.model.entity(named: "Sector")!
            var many = StoreChangeSet()
            many.inserts = (0..<2_500).map { PostgreSQLScratchStore.insert(sector, ["name": .string("b\($0)")]) }
            let keys = try store.save(many) { _ in .fail }.changes.inserted.map(\.primaryKey).sorted()
            #expect(keys == Array(4...2_503))
            #expect(try Self.saveSectors(store, 1, named: "c") == [2_504])
        }
    }

    @Test("two stores on one schema take separate blocks: no key is handed out twice")
    func twoStoresNeverCollide() throws {
        try PostgreSQLScratchStore(label: "keys2").run { url in
            let model = TestModels.tickers()
            let first = try PostgreSQLStore(url: url, model: model)
            defer { first.close() }
            let second = try PostgreSQLStore(url: url, model: model)
            defer { second.close() }
            var keys: [Int64] = []
            for round in 0..<3 {
                keys += try Self.saveSectors(first, 2, named: "first\(round)-")
                keys += try Self.saveSectors(second, 2, named: "second\(round)-")
            }
            #expect(Set(keys).count == keys.count, "\(keys)")
            #expect(keys.prefix(4) == [1, 2, PostgreSQLKeyBlocks.size + 1, PostgreSQLKeyBlocks.size + 2])
            let stored = try first.read { connection in
                try connection.query(#"SELECT count(*), count(DISTINCT "Z_PK") FROM "Sector""#).map { [try $0[0].decode(Int64.self), try $0[1].decode(Int64.self)] }
            }
            #expect(stored == [[6 * 2, 6 * 2]])
        }
    }

    @Test("a store whose sequences count by one (made before blocks) takes one key a nextval")
    func sequenceCountingByOne() throws {
        try PostgreSQLScratchStore(label: "keys1").run { url in
            let model = TestModels.tickers()
            do {
                let store = try PostgreSQLStore(url: url, model: model)
                defer { store.close() }
                let table = store.layout.base.entities[model.entity(named: "Sector")!.index].tableIndex
                let sequence = PostgreSQLLayout.q(store.layout.sequence(ofTable: table))
                try store.read { connection in try connection.execute("ALTER SEQUENCE \(sequence) INCREMENT BY 1") }
            }
            let first = try PostgreSQLStore(url: url, model: model)
            defer { first.close() }
            let second = try PostgreSQLStore(url: url, model: model)
            defer { second.close() }
            #expect(try Self.saveSectors(first, 2, named: "a") == [1, 2])
            #expect(try Self.saveSectors(second, 2, named: "b") == [3, 4])
            #expect(try Self.saveSectors(first, 1, named: "c") == [5])
        }
    }

    @Test("after a migration, keys start above every key a block held, used or not")
    func migrationStartsAboveBlocks() throws {
        try PostgreSQLScratchStore(label: "keysm").run { url in
            let v1 = try MigrationFixture.model(#"{"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}]}]}"#)
            let v2 = try MigrationFixture.model(#"""
                {"entities": [{"name": "Item", "attributes": [{"name": "name", "type": "String"}, {"name": "note", "type": "String"}]}]}
                """#)
            func saveItem(_ store: PostgreSQLStore, _ model: ManagedObjectModel) throws -> Int64 {
                var insert = StoreChangeSet()
                insert.inserts = [PostgreSQLScratchStore.insert(model.entity(named: "Item")!, ["name": .string("x")])]
                return try store.save(insert) { _ in .fail }.changes.inserted[0].primaryKey
            }
            do {
                let store = try PostgreSQLStore(url: url, model: v1)
                defer { store.close() }
                #expect(try [saveItem(store, v1), saveItem(store, v1)] == [1, 2])
            }
            try PostgreSQLStore.migrate(url: url, to: v2)
            let store = try PostgreSQLStore(url: url, model: v2)
            defer { store.close() }
            let after = try saveItem(store, v2)
            #expect(after > PostgreSQLKeyBlocks.size, "the block 1…\(PostgreSQLKeyBlocks.size) was handed out: \(after)")
        }
    }

    @Test("blocks hand out their keys in order and keep what is left")
    func blockArithmetic() {
        let blocks = PostgreSQLKeyBlocks.Blocks(starts: [1, 2_001], size: 1_000)
        #expect(blocks.keys(1_002) == Array(1...1_000) + [2_001, 2_002])
        #expect(blocks.remainder(after: 1_002) == .init(next: 2_003, last: 3_000))
        #expect(blocks.remainder(after: 2_000) == nil)
        var reserved: PostgreSQLKeyBlocks.Reserved? = .init(next: 7, last: 9)
        #expect(PostgreSQLKeyBlocks.take(2, from: &reserved) == [7, 8])
        #expect(PostgreSQLKeyBlocks.take(5, from: &reserved) == [9])
        #expect(reserved == nil)
    }
}
