import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// `PersistentStore.forEachKeyedRow`: every store hands over the rows `keyedIDs` returns, in
/// order, with the keys' kinds and typed values.
@Suite struct KeyedRowStreamTests {
    /// One row as read through the ``KeyedRow`` accessors (typed where the kind allows).
    private static func read(_ row: any KeyedRow, keys: Int) -> (id: ObjectID, keys: [Value]) {
        let values = (0..<keys).map { k -> Value in
            switch row.kind(ofKey: k) {
            case .null: return .null
            case .integer: return .integer(row.int64(ofKey: k))
            case .double: return .double(row.double(ofKey: k))
            case .string: return .string(row.withUTF8(ofKey: k) { String(decoding: $0, as: UTF8.self) })
            case .other: return row.value(ofKey: k)
            }
        }
        return (row.objectID, values)
    }

    @Test(arguments: StoreKind.allCases)
    func streamedRowsAreTheKeyedIDsRowsInOrder(kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.context()
        try context.performAndWait {
            for (i, symbol) in ["DELTA", "ALPHA", "CHARLIE", "BRAVO"].enumerated() {
                let t = try context.insert(Ticker.self)
                t.symbol = symbol
                t.price = Double(i) + 0.5
                t.volume = Int64(10 - i)
                t.active = i % 2 == 0
                t.name = i == 1 ? nil : "ch\u{E9} \(i)"
            }
            try context.save()
            let entity = context.model.entity(named: "Ticker")!
            let query = StoreQuery(entity: entity, sortDescriptors: [SortKey("symbol")])
            let paths = ["symbol", "volume", "price", "active", "name"]
            let storeRef = context.coordinator.store
            let expected = try storeRef.keyedIDs(for: query, keyPaths: paths)
            var streamed: [(id: ObjectID, keys: [Value])] = []
            try storeRef.forEachKeyedRow(for: query, keyPaths: paths) { streamed.append(Self.read($0, keys: paths.count)) }
            #expect(streamed.map(\.id) == expected.map(\.id))
            #expect(streamed.map(\.keys) == expected.map(\.keys))
            #expect(streamed.first?.keys.first == .string("ALPHA"))
        }
    }

    @Test func anErrorFromTheBodyStopsTheStream() throws {
        struct Stop: Error {}
        let context = try TestStore(.sqlite).context()
        try context.performAndWait {
            for symbol in ["A", "B", "C"] { try context.insert(Ticker.self).symbol = symbol }
            try context.save()
            let query = StoreQuery(entity: context.model.entity(named: "Ticker")!, sortDescriptors: [SortKey("symbol")])
            var seen = 0
            #expect(throws: Stop.self) {
                try context.coordinator.store.forEachKeyedRow(for: query, keyPaths: ["symbol"]) { _ in
                    seen += 1
                    throw Stop()
                }
            }
            #expect(seen == 1)
        }
    }
}
