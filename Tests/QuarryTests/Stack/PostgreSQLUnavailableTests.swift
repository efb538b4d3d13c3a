#if !PostgreSQL
import Foundation
import Quarry
import QuarryTestSupport
import Testing

/// A build without the `PostgreSQL` trait (the Thread Sanitizer and fuzzing builds) refuses a
/// `postgres://` store clearly, naming it without its password.
struct PostgreSQLUnavailableTests {
    @Test("a stack on a postgres:// URL says this build has no PostgreSQL support, without the password")
    func stackRefusesAURL() throws {
        let url = try #require(URL(string: "postgres://quarry:s3cret@127.0.0.1:5432/quarry?schema=x"))
        #expect(!PostgreSQLSupport.isAvailable)
        do {
            _ = try PersistentStack(model: TestModels.tickers(), storeURL: url)
            Issue.record("a postgres:// store opened without PostgreSQL support")
        } catch {
            let message = "\(error)"
            #expect(message.contains("built without PostgreSQL support") && message.contains("postgres://quarry:***@127.0.0.1"), "\(message)")
            #expect(!message.contains("s3cret"))
        }
    }
}
#endif
