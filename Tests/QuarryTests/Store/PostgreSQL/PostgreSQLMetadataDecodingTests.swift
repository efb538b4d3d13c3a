#if PostgreSQL
import Foundation
import PostgresNIO
import Testing
@testable import Quarry
import QuarryTestSupport

/// Issue 36 ("every failure is a value"): a row of a PostgreSQL store's `"Z_METADATA"` that is
/// not text (another program altered the table) fails the read with a ``ColumnDecodingError``
/// naming the column, instead of being skipped (and the store then said to have no metadata).
@Suite("PostgreSQL store: metadata that is not text is an error naming its column",
       .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct PostgreSQLMetadataDecodingTests {
    /// Turns the metadata's `"value"` column into bytes, as another program might.
    private static func alterMetadataToBytes(_ url: PostgreSQLStoreURL) throws {
        let pool = try PostgreSQLConnectionPool(url: url, maximumConnections: 1)
        defer { pool.close() }
        try pool.withConnection { c in
            try c.execute(#"ALTER TABLE "Z_METADATA" ALTER COLUMN "value" TYPE bytea USING convert_to("value", 'UTF8')"#)
        }
    }

    @Test("opening a store whose metadata is not text throws, naming the column")
    func openingFails() throws {
        try PostgreSQLScratchStore(label: "metadata").run { url in
            try PostgreSQLStore(url: url, model: TestModels.tickers()).close()
            try Self.alterMetadataToBytes(url)
            let error = #expect(throws: ColumnDecodingError.self) { try PostgreSQLStore(url: url, model: nil) }
            #expect(error?.column == "value" && error?.expected == "string", "\(String(describing: error))")
        }
    }

    @Test("the modification token of a store whose metadata turned to bytes throws, naming the column")
    func modificationTokenFails() throws {
        let scratch = try PostgreSQLScratchStore(label: "token")
        try scratch.withStore { store in
            #expect(try store.modificationToken()?.hasSuffix(" 0") == true)
            try Self.alterMetadataToBytes(scratch.url)
            let error = #expect(throws: ColumnDecodingError.self) { try store.modificationToken() }
            #expect(error?.column == "value", "\(String(describing: error))")
        }
    }
}
#endif
