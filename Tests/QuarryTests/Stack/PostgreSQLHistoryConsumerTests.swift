import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// ``PersistentStack/lastMergedHistoryToken(consumer:)`` on a PostgreSQL store: kept in its
/// `"Z_METADATA"`, so every stack on the schema (another host, a restart) reads it.
@Suite("PostgreSQL history consumer tokens", .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLHistoryConsumerTests {
    @Test("a consumer token set in one stack is read by a new stack on the same schema; nil forgets it; a read-only stack keeps its own in memory")
    func tokensAreKeptInTheStore() throws {
        let text = try #require(PostgreSQLTestServer.freshStoreURL(label: "consumers"))
        let url = try #require(URL(string: text))
        defer { try? PostgreSQLStore.destroy(url: try PostgreSQLStoreURL(parsing: text)) }
        let model = TestModels.tickers()
        do {
            let stack = try PersistentStack(model: model, storeURL: url)
            #expect(try stack.lastMergedHistoryToken(consumer: "exporter") == nil)
            try stack.setLastMergedHistoryToken(HistoryToken(42), consumer: "exporter")
            try stack.setLastMergedHistoryToken(HistoryToken(7), consumer: "browser")
            try stack.setLastMergedHistoryToken(HistoryToken(8), consumer: "browser")
        }
        let second = try PersistentStack(model: model, storeURL: url)
        #expect(try second.lastMergedHistoryToken(consumer: "exporter") == HistoryToken(42))
        #expect(try second.lastMergedHistoryToken(consumer: "browser") == HistoryToken(8))
        try second.setLastMergedHistoryToken(nil, consumer: "browser")
        #expect(try second.lastMergedHistoryToken(consumer: "browser") == nil)
        #expect(try PersistentStack(model: model, storeURL: url).lastMergedHistoryToken(consumer: "browser") == nil)

        var options = PersistentStack.Options()
        options.storeURL = url
        options.readOnly = true
        let readOnly = try PersistentStack(model: model, options: options)
        #expect(try readOnly.lastMergedHistoryToken(consumer: "exporter") == HistoryToken(42))
        try readOnly.setLastMergedHistoryToken(HistoryToken(9), consumer: "viewer")
        #expect(try readOnly.lastMergedHistoryToken(consumer: "viewer") == HistoryToken(9))
        #expect(try PersistentStack(model: model, storeURL: url).lastMergedHistoryToken(consumer: "viewer") == nil)
    }
}
