import Foundation
import Quarry
import QuarryDemo
import QuarryTestSupport
import Testing

/// Several hosts on one PostgreSQL server, each a separate process talking TCP on loopback:
/// two `quarry demo --import-only` importers writing the same tickers and the same counter
/// row, a `psql` session writing the tickers under them, and a watching stack here (this
/// test's process) with a fetched-results controller.
@Suite("Several hosts: two importer processes and a watcher on one PostgreSQL server",
       .enabled(if: SeveralHosts.canRun, SeveralHosts.skipReason), .timeLimit(.minutes(3)))
struct SeveralHostsTests {
    @Test("no committed save is lost, conflicts are resolved by policy and counted, an importer killed mid-transaction leaves no part of its save, and the watcher converges to a fresh fetch")
    func importersAndAWatcherOnOneServer() async throws {
        let url = try #require(PostgreSQLTestServer.freshStoreURL(label: "hosts"))
        let storeURL = try PostgreSQLStoreURL(parsing: url)
        defer { try? PostgreSQLStore.destroy(url: storeURL) }
        let quarry = try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first (swift build --build-tests)")
        let model = try DemoModel.make()
        let seedRows = 300, rate = 2_000
        // Each save inserts this many tickers (numbered with the save) and updates the rest of
        // its rows among all tickers: both importers update overlapping objects.
        var memory = PersistentStack.Options()
        memory.storeType = .inMemory
        let insertsPerSave = DemoImporter(stack: try PersistentStack(model: model, options: memory), rate: rate).insertsPerSave

        let seeded = try QuarryExecutable.run(["demo", "--seed-only", "--rows", "\(seedRows)", "--store", url])
        #expect(seeded.status == 0, "\(seeded.standardError)")

        let watcher = try SeveralHosts.watcher(model: model, url: url)
        let controller = try await MainActor.run { () throws -> FetchedResultsController in
            let controller = try FetchedResultsController(
                fetchRequest: FetchRequest(entityName: "Ticker", sortDescriptors: [SortKey("symbol")]), context: watcher.mainContext)
            try controller.performFetch()
            return controller
        }
        #expect(await MainActor.run { controller.count } == seedRows)

        let arguments = ["demo", "--import-only", "--rate", "\(rate)", "--store", url]
        let killed = try SpawnedProcess(quarry, arguments)
        let survivor = try SpawnedProcess(quarry, arguments)
        // Both importers running, and saves of theirs merged here.
        _ = try await remoteChanges(of: watcher, after: {}, until: {
            controller.count >= seedRows + 6 * insertsPerSave || !killed.isRunning || !survivor.isRunning
        })
        #expect(killed.isRunning && survivor.isRunning, "an importer stopped: \(killed.standardError) \(survivor.standardError)")

        // Hold the tickers' table: each importer's next save has read its tickers and waits
        // inside its transaction, at its first insert.
        let lock = try SeveralHosts.TableLock(schema: storeURL.schema, table: "Ticker")
        let blockedSessions = try lock.waitForBlockedTransactions(2, while: { killed.isRunning && survivor.isRunning })
        let beforeKill = try SeveralHosts.freshRows(model: model, url: storeURL)
        let committedBeforeKill = SeveralHosts.saveNumbers(beforeKill)
        killed.send(SIGKILL)
        #expect(killed.waitForExit() == 128 + SIGKILL)
        // Another writer moves every ticker to one sector under the waiting importer: each
        // ticker the importer's save updates is now a conflict (its `Z_OPT` moved on), which
        // its merge policy resolves (its prices win, the other writer's sector stays).
        let sector = try lock.commit(after: SeveralHosts.moveEveryTicker(schema: storeURL.schema))

        // The survivor goes on (its waiting save first); then it stops as well.
        let lastBeforeKill = committedBeforeKill.max() ?? 0
        _ = try await remoteChanges(of: watcher, after: {}, until: {
            (SeveralHosts.saveNumbers(SeveralHosts.rows(controller, watcher.mainContext)).max() ?? 0) >= lastBeforeKill + 3
                || !survivor.isRunning
        })
        #expect(survivor.isRunning, "the surviving importer stopped: \(survivor.standardError)")
        survivor.send(SIGTERM)
        #expect(survivor.waitForExit() == 128 + SIGTERM, "SIGTERM ends the importer after its save (exit 143): \(survivor.standardError)")

        let fresh = try SeveralHosts.freshRows(model: model, url: storeURL)
        let freshSaves = try SeveralHosts.counterSaves(model: model, url: storeURL)
        // No save lost, none doubled, none in part: the saves numbered 1…n each hold all of
        // their tickers, and the counter row (updated by every save of both importers, their
        // optimistic-lock conflicts resolved by the importer's policy and symbol uniqueness)
        // counted every one of them.
        let perSave = Dictionary(grouping: fresh.values.map(\.saveNumber).filter { $0 > 0 }, by: { $0 }).mapValues(\.count)
        #expect(perSave.keys.sorted() == Array(1...Int64(perSave.count)))
        #expect(perSave.values.allSatisfy { $0 == insertsPerSave }, "\(perSave.filter { $0.value != insertsPerSave })")
        #expect(Int64(perSave.count) == freshSaves)
        #expect(fresh.count == seedRows + perSave.count * insertsPerSave)
        // Everything committed before the kill is still there.
        #expect(committedBeforeKill.isSubset(of: Set(perSave.keys)))
        #expect(perSave.count > committedBeforeKill.count)

        // Every committed save was reported by the importer that made it (the killed one's
        // printed as they landed), and the one that waited under the other writer resolved a
        // conflict for each ticker it updated, keeping the other writer's sector on each.
        let killedSaves = SeveralHosts.saves(printedBy: killed), survivorSaves = SeveralHosts.saves(printedBy: survivor)
        #expect((killedSaves + survivorSaves).map(\.number).sorted() == perSave.keys.sorted().map(Int.init))
        let waited = try #require(survivorSaves.first { $0.number == Int(lastBeforeKill) + 1 }, "\(survivor.standardOutput)")
        // Unless the attempt that waited was refused: it had minted the symbols of a save the
        // other importer committed just before the lock (both read the same counter), so it
        // was retried, and the retry read the tickers afresh, after the other writer's commit.
        let survivorLines = survivor.standardOutput.split(separator: "\n").map(String.init)
        let waitedLine = survivorLines.firstIndex { DemoSave(line: $0) == waited }
        let retried = waitedLine.map { $0 > 0 && survivorLines[$0 - 1] == DemoImporter.collisionLine } ?? false
        #expect(waited.updated > 0 && (waited.resolvedConflicts == waited.updated || retried),
                "\(waited); save \(lastBeforeKill + 1) waited; the sessions seen waiting: \(blockedSessions); survivor printed:\n\(survivor.standardOutput)\(survivor.standardError)\nkilled printed:\n\(killed.standardOutput)")
        #expect(survivorSaves.contains { $0.resolvedConflicts == 0 }, "saves with no other writer in between have no conflicts")
        let totals = survivor.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        #expect(totals.hasPrefix("imported \(survivorSaves.count) saves: ")
                    && totals.contains(" \(survivorSaves.map(\.resolvedConflicts).reduce(0, +)) conflicts resolved by policy"), "\(totals)")
        let sectors = try SeveralHosts.freshSectors(model: model, url: storeURL)
        #expect(beforeKill.keys.allSatisfy { sectors[$0] == sector }, "the other writer's sector was lost on a conflict")

        // The watcher converges to exactly the rows of a fresh fetch.
        try await SeveralHosts.converge(watcher, controller, to: fresh)
        let watched = await MainActor.run { SeveralHosts.rows(controller, watcher.mainContext) }
        #expect(watched == fresh)
    }
}

/// The several-hosts test's processes and reads.
enum SeveralHosts {
    /// A ticker as every host must see it.
    struct Row: Equatable, Sendable {
        var price: Value
        var volume: Value
        var saveNumber: Int64
    }

    /// `psql`, which holds the table lock.
    static let psql = ["/usr/bin/psql", "/usr/local/bin/psql", "/usr/lib/postgresql/bin/psql"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A test server, `psql`, and a stack that opens PostgreSQL stores.
    static var canRun: Bool {
        PostgreSQLTestServer.isAvailable && psql != nil && PersistentStack.StoreType(rawValue: "postgreSQL") != nil
    }

    static let skipReason: Comment = "needs QUARRY_TEST_POSTGRES_URL (scripts/postgres.sh start), psql and a stack with StoreType.postgreSQL"

    /// The watching host's stack on `url` (it `LISTEN`s for every other host's commits).
    static func watcher(model: ManagedObjectModel, url: String) throws -> PersistentStack {
        var options = PersistentStack.Options()
        options.storeURL = URL(string: url)
        options.storeType = try #require(PersistentStack.StoreType(rawValue: "postgreSQL"))
        return try PersistentStack(model: model, options: options)
    }

    /// The controller's tickers by symbol, read on the main queue.
    @MainActor
    static func rows(_ controller: FetchedResultsController, _ context: ObjectContext) -> [String: Row] {
        var rows: [String: Row] = [:]
        for id in controller.snapshot.items.flatMap({ $0 }) {
            let ticker = context.object(with: id)
            if let (symbol, row) = try? row(ticker) { rows[symbol] = row }
        }
        return rows
    }

    /// Every ticker of the store by symbol, read by a new store instance (a fresh fetch).
    static func freshRows(model: ManagedObjectModel, url: PostgreSQLStoreURL) throws -> [String: Row] {
        let store = try PostgreSQLStore(url: url, model: model, options: .init(readOnly: true))
        defer { store.close() }
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "fresh"), name: "fresh")
        return try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.objects(ofEntity: "Ticker").map(row))
        }
    }

    /// The importers' save counter in the store's state row.
    static func counterSaves(model: ManagedObjectModel, url: PostgreSQLStoreURL) throws -> Int64 {
        let store = try PostgreSQLStore(url: url, model: model, options: .init(readOnly: true))
        defer { store.close() }
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "fresh"), name: "fresh")
        return try context.performAndWait {
            let state = try #require(try context.objects(ofEntity: DemoState.entityName).first)
            guard case .integer(let saves) = try state.value(forKey: DemoState.Key.saves) else { return 0 }
            return saves
        }
    }

    /// The saves an importer process printed (one ``DemoSave`` line each).
    static func saves(printedBy process: SpawnedProcess) -> [DemoSave] {
        process.standardOutput.split(separator: "\n").compactMap { DemoSave(line: String($0)) }
    }

    /// `UPDATE`s every ticker of the store in `schema` to the first sector (a new `Z_OPT`, as
    /// any writer's update), selecting that sector's key: the statements a ``TableLock``
    /// commits.
    static func moveEveryTicker(schema: String) -> String {
        let s = "\"\(schema.replacingOccurrences(of: "\"", with: "\"\""))\""
        return """
            UPDATE \(s)."Ticker" SET "sector" = (SELECT min("Z_PK") FROM \(s)."Sector"), "Z_OPT" = "Z_OPT" + 1;
            SELECT min("Z_PK") FROM \(s)."Sector";
            """
    }

    /// Every ticker's sector key by symbol, read by a new store instance.
    static func freshSectors(model: ManagedObjectModel, url: PostgreSQLStoreURL) throws -> [String: Int64] {
        let store = try PostgreSQLStore(url: url, model: model, options: .init(readOnly: true))
        defer { store.close() }
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store, name: "fresh"), name: "fresh")
        return try context.performAndWait {
            var sectors: [String: Int64] = [:]
            for ticker in try context.objects(ofEntity: "Ticker") {
                guard case .string(let symbol) = try ticker.value(forKey: "symbol") else { continue }
                sectors[symbol] = try ticker.object(forKey: "sector")?.objectID.primaryKey
            }
            return sectors
        }
    }

    /// The save numbers the importers' tickers carry.
    static func saveNumbers(_ rows: [String: Row]) -> Set<Int64> {
        Set(rows.values.map(\.saveNumber).filter { $0 > 0 })
    }

    private static func row(_ ticker: ManagedObject) throws -> (String, Row) {
        guard case .string(let symbol) = try ticker.value(forKey: "symbol") else { throw SeveralHostsError("a ticker without a symbol") }
        guard case .integer(let save) = try ticker.value(forKey: "saveNumber") else { throw SeveralHostsError("\(symbol) has no save number") }
        return (symbol, Row(price: try ticker.value(forKey: "price"), volume: try ticker.value(forKey: "volume"), saveNumber: save))
    }

    /// Waits (without sleeping) for remote changes until the watcher's controller shows `rows`.
    static func converge(_ watcher: PersistentStack, _ controller: FetchedResultsController, to rows: [String: Row]) async throws {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let token = watcher.addRemoteChangeObserver { _ in continuation.yield() }
        defer { token.cancel() }
        // Subscribed first: a change landing between the check and the wait is still seen.
        if await MainActor.run(body: { Self.rows(controller, watcher.mainContext) == rows }) { return }
        try await withDeadline(defaultEventDeadline, awaiting: "the watcher's controller to show every committed row") {
            for await _ in stream {
                if await MainActor.run(body: { Self.rows(controller, watcher.mainContext) == rows }) { return }
            }
        }
    }

    /// An `EXCLUSIVE` lock on one of the store's tables, held by a `psql` session until
    /// ``release()``: writers wait for it inside their transactions; readers do not.
    final class TableLock {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        /// The session's backend process ID.
        let backend: Int

        init(schema: String, table: String) throws {
            process.executableURL = URL(fileURLWithPath: try #require(SeveralHosts.psql))
            process.arguments = ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", try #require(PostgreSQLTestServer.url)]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            let name = "\"\(schema.replacingOccurrences(of: "\"", with: "\"\""))\".\"\(table)\""
            input.fileHandleForWriting.write(Data("BEGIN; LOCK TABLE \(name) IN EXCLUSIVE MODE; SELECT pg_backend_pid();\n".utf8))
            var text = ""
            while !text.contains("\n") {
                let more = output.fileHandleForReading.availableData
                guard !more.isEmpty else { throw SeveralHostsError("psql could not lock \(name)") }
                text += String(decoding: more, as: UTF8.self)
            }
            backend = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }

        /// Returns once `count` sessions wait for this lock, directly or behind a session that
        /// does (a second importer's insert waits for the first's uncommitted row of the same
        /// symbol), each inside a transaction; throws once `alive` no longer holds. Each look is
        /// one `psql` query. Client sessions only: a replication slot being made by another test
        /// meanwhile waits for every open transaction, this one's included, without being one
        /// of the importers.
        /// Returns the waiting sessions (pid, program, statement), for a failure to name them.
        @discardableResult
        func waitForBlockedTransactions(_ count: Int, while alive: () -> Bool) throws -> String {
            let query = """
                WITH RECURSIVE blocked(pid) AS (
                SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND \(backend) = ANY (pg_blocking_pids(pid))
                UNION SELECT a.pid FROM pg_stat_activity a JOIN blocked b ON b.pid = ANY (pg_blocking_pids(a.pid))
                WHERE a.backend_type = 'client backend')
                SELECT count(*), string_agg(a.pid || ' ' || a.application_name || ': ' || left(a.query, 60), '; ')
                FROM blocked b JOIN pg_stat_activity a ON a.pid = b.pid
                """
            while alive() {
                let result = try CommandRunner.run(URL(fileURLWithPath: try #require(SeveralHosts.psql)),
                                                   ["-X", "-A", "-t", "-c", query, try #require(PostgreSQLTestServer.url)])
                guard result.status == 0 else { throw SeveralHostsError("psql: \(result.standardError)") }
                let fields = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|", maxSplits: 1)
                if let waiting = fields.first.flatMap({ Int($0) }), waiting >= count {
                    return fields.count > 1 ? String(fields[1]) : ""
                }
            }
            throw SeveralHostsError("a process stopped before \(count) transactions waited for the lock")
        }

        /// Runs `statements` in the session's transaction, commits it (releasing the lock) and
        /// returns the last value the statements printed.
        func commit(after statements: String) throws -> Int64 {
            input.fileHandleForWriting.write(Data("\(statements)\nCOMMIT;\n".utf8))
            try input.fileHandleForWriting.close()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0,
                  let value = printed.split(separator: "\n").last.flatMap({ Int64($0.trimmingCharacters(in: .whitespaces)) })
            else { throw SeveralHostsError("psql could not run \(statements): \(printed)") }
            return value
        }

        deinit {
            if process.isRunning { process.terminate() }
        }
    }
}

/// A failed step of the several-hosts test.
struct SeveralHostsError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
