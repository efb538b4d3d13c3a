import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Other programs' commits to a PostgreSQL schema Quarry did not make reach a stack through
/// logical replication (``PostgreSQLReplicationFeed``), or the stack says why they cannot.
@Suite("PostgreSQL schemas Quarry did not make, live", .serialized,
       .enabled(if: PostgreSQLTestServer.isAvailable, Comment(rawValue: PostgreSQLTestServer.skipReason)))
struct ForeignPostgreSQLLiveTests {
    /// A read-only stack on the schema at `url`, with the model read from it.
    static func stack(_ url: PostgreSQLStoreURL) throws -> PersistentStack {
        let store = try ForeignPostgreSQLSchemaTests.open(url)
        let model = store.model
        store.close()
        var options = PersistentStack.Options()
        // The URL as a user writes it, with its password when it has one (description hides it).
        var components = URLComponents(string: url.description)!
        components.password = url.urlPassword
        options.storeURL = components.url!
        options.storeType = .postgreSQL
        options.readOnly = true
        return try PersistentStack(model: model, options: options)
    }

    /// Runs `sql` on `admin`'s connection (another session than the stack's).
    static func run(_ admin: PostgreSQLConnectionPool, _ sql: String) throws {
        _ = try admin.withConnection { try $0.execute(sql) }
    }

    @MainActor
    static func names(_ controller: FetchedResultsController) -> [String] {
        controller.fetchedObjects.map { (try? $0.value(forKey: "name")).flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "?" }
    }

    /// A controller of `entity`'s objects sorted by `sort`, fetched on the main queue.
    static func controller(_ stack: PersistentStack, _ entity: String, sort: [SortKey]) async throws -> FetchedResultsController {
        try await MainActor.run {
            let controller = try FetchedResultsController(fetchRequest: FetchRequest(entityName: entity, sortDescriptors: sort),
                                                          context: stack.mainContext)
            try controller.performFetch()
            return controller
        }
    }

    @Test("another session's updates, inserts, deletes and key changes reach a controller, merged in commit order")
    func otherSessionsCommitsAreMerged() async throws {
        try await ForeignPostgreSQLSchemaTests.withShopAsync(rows: 20) { shop in
            let (url, admin) = (shop.url, shop.admin)
            let stack = try Self.stack(url)
            #expect(stack.watchesRemoteChanges)
            let controller = try await Self.controller(stack, "company", sort: [SortKey("id")])
            let schema = sqlIdentifier(url.schema)
            let changes = try await remoteChanges(of: stack, after: {
                try Self.run(admin, "UPDATE \(schema).company SET name = 'X' || id WHERE id <= 2")
                try Self.run(admin, "INSERT INTO \(schema).company (id, name, price) VALUES (21, 'Company 21', 1)")
                try Self.run(admin, "DELETE FROM \(schema).company WHERE id = 20")
                try Self.run(admin, "UPDATE \(schema).company SET id = 100 WHERE id = 15")
            }, until: { Self.names(controller).last == "Company 15" })
            #expect(changes.allSatisfy { $0.error == nil && !$0.isExternal }, "\(changes)")
            await MainActor.run {
                #expect(Self.names(controller).prefix(3) == ["X1", "X2", "Company 3"])
                #expect(controller.fetchedObjects.count == 20)
                #expect(controller.fetchedObjects.map(\.objectID.primaryKey).suffix(3) == [19, 21, 100])
            }
            // A composite key is hashed on the server as the store's queries hash it.
            let quotes = try await Self.controller(stack, "quote", sort: [SortKey("symbol"), SortKey("day")])
            _ = try await remoteChanges(of: stack, after: {
                try Self.run(admin, "UPDATE \(schema).quote SET close = 0 WHERE symbol = 'S1'")
                try Self.run(admin, "DELETE FROM \(schema).quote WHERE symbol = 'S0'")
            }, until: { quotes.fetchedObjects.count == 40 })
            let closes = await MainActor.run { quotes.fetchedObjects.prefix(10).map { try? $0.value(forKey: "close") } }
            #expect(closes.allSatisfy { if case .decimal(let d)?? = $0 { d.description == "0.00" } else { false } }, "\(closes)")
            stack.stopWatchingRemoteChanges()
        }
    }

    @Test("a role that may not replicate: the stack says why changes do not show live and what would make them")
    func roleWithoutReplicationIsNotLive() async throws {
        try await ForeignPostgreSQLSchemaTests.withShopAsync(rows: 5) { shop in
            let schema = sqlIdentifier(shop.url.schema)
            try await shop.withRole(["GRANT USAGE ON SCHEMA \(schema) TO ROLE", "GRANT SELECT ON ALL TABLES IN SCHEMA \(schema) TO ROLE"]) { limited, role in
                // The stack says it while it opens: the observer is added on the main queue before the
                // main queue hands the change on.
                let (stream, continuation) = AsyncStream<RemoteChange>.makeStream()
                let (stack, token) = try await MainActor.run {
                    let stack = try Self.stack(limited)
                    return (stack, stack.addRemoteChangeObserver { continuation.yield($0) })
                }
                defer { token.cancel() }
                let change = try await withDeadline(defaultEventDeadline, awaiting: "the stack to say it is not live") { () -> RemoteChange? in
                    for await change in stream where change.error != nil { return change }
                    return nil
                }
                guard case .notLive(let store, let reason)? = change?.error else {
                    Issue.record("expected notLive, got \(String(describing: change))")
                    return
                }
                #expect(await MainActor.run { stack.lastRemoteError } == change?.error)
                #expect(store == limited.description && !reason.contains("pw-"))
                #expect(reason == "the role \(role) may not replicate; after ALTER ROLE \(role) REPLICATION (by a superuser) changes show live")
            }
        }
    }

    @Test("a lost replication connection is reported, made again, and followed by one re-fetch; later commits merge again")
    func lostConnectionReconnects() async throws {
        try await ForeignPostgreSQLSchemaTests.withShopAsync(rows: 10) { shop in
            let (url, admin) = (shop.url, shop.admin)
            let stack = try Self.stack(url)
            let controller = try await Self.controller(stack, "company", sort: [SortKey("id")])
            // Every change from the loss on, until the re-fetch that covers the gap.
            let (stream, continuation) = AsyncStream<RemoteChange>.makeStream()
            let token = stack.addRemoteChangeObserver { continuation.yield($0) }
            // This stack's replication connection only (other suites stream meanwhile).
            let feed = try #require(stack.state.withLock { $0.remoteWatch }?.changeFeed as? PostgreSQLReplicationFeed)
            let slot = try #require(feed.currentSlot.withLock { $0 })
            try Self.run(admin, "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = '\(slot)'")
            let lost = try await withDeadline(defaultEventDeadline, awaiting: "the loss, then the re-fetch after reconnecting") { () -> [RemoteChange] in
                var seen: [RemoteChange] = []
                for await change in stream {
                    seen.append(change)
                    if change.isExternal { break }
                }
                return seen
            }
            token.cancel()
            #expect(lost.first.map { if case .listenerDisconnected? = $0.error { true } else { false } } == true, "\(lost)")
            #expect(lost.last?.isExternal == true && lost.last?.error == nil, "the gap is covered by a re-fetch: \(lost)")
            let later = try await remoteChanges(of: stack, after: {
                try Self.run(admin, "UPDATE \(sqlIdentifier(url.schema)).company SET name = 'later' WHERE id = 2")
            }, until: { Self.names(controller).dropFirst().first == "later" })
            #expect(later.allSatisfy { $0.error == nil && !$0.isExternal }, "\(later)")
            #expect(await MainActor.run { stack.lastRemoteError } == nil)
            stack.stopWatchingRemoteChanges()
        }
    }
}
