import Foundation
import Testing
@testable import Quarry

/// Store URLs: parsing, defaults, passwords from the environment and the password file.
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
        #expect(url.password(environment: [:]) == "s3cret")
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

    @Test("PGPASSWORD comes before the password file; the file's first matching line wins, with wildcards and escapes")
    func passwordSources() throws {
        let url = try PostgreSQLStoreURL(parsing: "postgres://ann@127.0.0.1:5433/sales")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("pgpass")
        try """
        # comment
        otherhost:5433:sales:ann:wrong
        localhost:5433:*:ann:pa\\:ss
        *:*:*:*:fallback
        """.write(to: file, atomically: true, encoding: .utf8)
        #expect(url.password(environment: ["PGPASSFILE": file.path]) == "pa:ss")
        #expect(url.password(environment: ["PGPASSFILE": file.path, "PGPASSWORD": "env"]) == "env")
        let other = try PostgreSQLStoreURL(parsing: "postgres://carl@10.0.0.9/x")
        #expect(other.password(environment: ["PGPASSFILE": file.path]) == "fallback")
        #expect(other.password(environment: ["PGPASSFILE": directory.appendingPathComponent("none").path]) == nil)
    }
}
