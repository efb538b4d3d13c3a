import Foundation
import Testing
@testable import Quarry

/// Store URLs: parsing, defaults, and the parameters libpq connects with.
@Suite("PostgreSQL store URLs")
struct PostgreSQLStoreURLTests {
    @Test("a full URL gives user, host, port, database, schema and TLS; the description never shows the password")
    func parsesEveryPart() throws {
        let url = try PostgreSQLStoreURL(parsing: "postgres://ann:s3cret@db.example.com:6543/sales?schema=quarry&sslmode=require")
        #expect(url.user == "ann")
        #expect(url.host == "db.example.com")
        #expect(url.port == 6543)
        #expect(url.database == "sales")
        #expect(url.schema == "quarry")
        #expect(url.tls == .require)
        #expect(url.urlPassword == "s3cret")
        #expect(url.description == "postgres://ann@db.example.com:6543/sales?schema=quarry&sslmode=require")
        #expect(!url.description.contains("s3cret"))
    }

    @Test("defaults: port 5432, schema public, no TLS on loopback and prefer elsewhere")
    func defaults() throws {
        let local = try PostgreSQLStoreURL(parsing: "postgresql://bob@127.0.0.1/db")
        #expect(local.port == 5432)
        #expect(local.schema == "public")
        #expect(local.tls == .disable)
        #expect(try PostgreSQLStoreURL(parsing: "postgres://bob@db.example.com/db").tls == .prefer)
    }

    @Test("every libpq sslmode is accepted as itself", arguments: PostgreSQLStoreURL.TLSMode.allCases)
    func sslModes(mode: PostgreSQLStoreURL.TLSMode) throws {
        let url = try PostgreSQLStoreURL(parsing: "postgres://bob@db.example.com/db?sslmode=\(mode.rawValue)")
        #expect(url.tls == mode)
        #expect(url.connectionParameters.first { $0.key == "sslmode" }?.value == mode.rawValue)
    }

    @Test("malformed URLs are refused naming what is missing, without the password", arguments: [
        ("postgres://u:pw@/db", "no host"),
        ("postgres://u:pw@host", "no database"),
        ("postgres://u:pw@host/db?sslmode=maybe", "unknown sslmode"),
        ("postgres://u:pw@host/db?colour=red", "unknown URL parameter 'colour'"),
    ])
    func malformed(text: String, reason: String) {
        #expect {
            _ = try PostgreSQLStoreURL(parsing: text)
        } throws: { error in
            let message = String(describing: error)
            return message.contains(reason) && !message.contains("pw")
        }
    }

    @Test("libpq gets the server, database, role, sslmode, schema and the URL's password; without one, none (libpq then reads PGPASSWORD or the password file)")
    func connectionParameters() throws {
        let url = try PostgreSQLStoreURL(parsing: "postgres://ann:s3cret@db.example.com:6543/sales?schema=my%20schema&sslmode=verify-full")
        let parameters = Dictionary(url.connectionParameters, uniquingKeysWith: { a, _ in a })
        #expect(parameters["host"] == "db.example.com" && parameters["port"] == "6543")
        #expect(parameters["dbname"] == "sales" && parameters["user"] == "ann")
        #expect(parameters["sslmode"] == "verify-full" && parameters["password"] == "s3cret")
        #expect(parameters["options"] == #"-c search_path="my\ schema""#, "a space in the schema escaped for libpq's options")
        #expect(parameters["application_name"] == "quarry")
        let bare = try PostgreSQLStoreURL(parsing: "postgres://carl@10.0.0.9/x")
        #expect(!bare.connectionParameters.contains { $0.key == "password" })
    }
}
