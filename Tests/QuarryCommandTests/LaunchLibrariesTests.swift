import Foundation
import QuarryTestSupport
import Testing

/// What a launch that never touches PostgreSQL loads: not libpq, nor the twenty libraries it
/// needs (TLS, Kerberos, LDAP), which took 4-5 ms of every launch while they were linked.
/// A PostgreSQL URL loads libpq on its first connection (the PostgreSQL command tests run
/// through it).
@Suite struct LaunchLibrariesTests {
    @Test("quarry --version loads no PostgreSQL client library")
    func versionLoadsNoLibpq() throws {
        // LD_DEBUG=libs: the dynamic loader names each library as it loads it, on stderr.
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first (swift build --build-tests)")
        let result = try CommandRunner.run(executable, ["--version"], environment: ["LD_DEBUG": "libs"])
        #expect(result.status == 0)
        #expect(result.standardError.contains("libsqlite3"), "the loader's report is missing: \(result.standardError.prefix(300))")
        #expect(!result.standardError.contains("libpq"))
        #expect(!result.standardError.contains("libssl"))
    }

    @Test("a PostgreSQL URL whose server cannot be reached is refused naming the server (libpq loaded when asked)")
    func unreachableServerUsesLibpq() throws {
        // Port 1 on loopback: nothing listens; libpq, loaded for this connection, says so.
        let result = try QuarryExecutable.run(["stats", "postgres://quarry@127.0.0.1:1/none"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("127.0.0.1"), "\(result.standardError)")
        #expect(!result.standardError.contains("could not be loaded"), "\(result.standardError)")
    }
}
