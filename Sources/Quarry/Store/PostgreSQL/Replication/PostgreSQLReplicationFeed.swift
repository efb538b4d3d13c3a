import Foundation
import Synchronization

/// The change feed of a schema Quarry did not make: logical replication (``PostgreSQLReplicationStream``)
/// of its tables' changes, whoever commits them (`psql`, an application, another Quarry), turned
/// into did-save merges in commit order.
///
/// For each commit, the rows it inserted, updated and deleted become object IDs (an integer key
/// read from the row; any other key hashed on the server as the store hashes it), their current
/// state is read in one query through the store (``HistoryChangeSet``), and the merge is handed
/// over; then the commit is acknowledged, so the server may recycle the log behind it. A
/// `TRUNCATE`, or a change to a table keyed by row position, is an ``RemoteCommit/external``
/// change (the visible results are re-fetched).
///
/// `init` returns once the slot exists (every commit after it is streamed), or after
/// ``startDeadline`` when the server is slow to make it (a slot waits for transactions running
/// at the time to end): the feed then hands over an external change once it streams, since
/// commits in between were not streamed.
///
/// The slot is temporary: a lost connection takes it along. The feed reports the loss, keeps
/// reconnecting with backoff (0.1 s doubling to 5 s), and once streaming again hands over an
/// external change, since commits made meanwhile were not streamed: after the re-fetch nothing
/// is missed, and nothing streamed before is handed over twice.
///
/// `@unchecked Sendable`: `relations` and the reporter are used only by the feed's thread.
final class PostgreSQLReplicationFeed: ChangeFeed, @unchecked Sendable {
    private let store: PostgreSQLStore
    private let schema: ForeignPostgreSQLSchema
    private let publication: String
    private let reporter: ChangeFeedReporter
    private let wake: WakePipe
    private let started = DispatchSemaphore(value: 0)
    /// Where the first slot is: `init` waits for it until ``startDeadline``.
    private let start = Mutex(StartState.waiting)
    private enum StartState { case waiting, streaming, gaveUp }
    /// How long `init` waits for the first slot.
    static let startDeadline: DispatchTimeInterval = .seconds(2)
    /// The feed's thread (weak: it holds the feed while it runs, not the other way round).
    private weak var thread: Thread?
    /// The slot being streamed from, `nil` between connections (tests end its connection).
    let currentSlot = Mutex<String?>(nil)
    /// The stream's relations by OID, mapped to the schema's entities (`nil`: not one of ours).
    private var relations: [UInt32: Mapped?] = [:]

    /// How the rows of one streamed relation become object IDs.
    private struct Mapped {
        var entity: Int
        var relation: ForeignPostgreSQLSchema.Relation
        /// Where each key column is in the relation's tuples; `nil` when a key column is missing.
        var keyPositions: [Int]?
    }

    /// One row change of the current transaction, its key still as text.
    private struct RowChange {
        var mapped: Mapped
        var key: [String?]
        var type: HistoryChangeType
    }

    /// Starts following `publication` for `store` (a schema Quarry did not make), handing each
    /// commit to `deliver` on the feed's thread.
    /// - Throws: ``PGError/connection(_:)`` when the wake pipe cannot be made.
    init(store: PostgreSQLStore, schema: ForeignPostgreSQLSchema, publication: String,
         deliver: @escaping @Sendable (RemoteCommit) -> Void) throws {
        wake = try WakePipe(purpose: "replication feed")
        self.store = store
        self.schema = schema
        self.publication = publication
        self.reporter = ChangeFeedReporter(deliver: deliver)
        let thread = Thread { [self] in
            defer { wake.threadEnded() }
            run()
        }
        thread.name = "Quarry.PostgreSQLReplication \(store.storeURL)"
        self.thread = thread
        thread.start()
        if started.wait(timeout: .now() + Self.startDeadline) == .timedOut {
            start.withLock { if $0 == .waiting { $0 = .gaveUp } }
        }
    }

    /// Stops streaming; returns once the feed's thread ended (at once when called on it).
    func cancel() { wake.stop(waiting: Thread.current !== thread) }

    private var isStopped: Bool { wake.isStopped }

    /// Streams, reconnecting with backoff after a loss, until cancelled.
    private func run() {
        var backoff = 0.1
        defer { started.signal() }
        while !isStopped {
            do {
                let stream = try PostgreSQLReplicationStream(url: store.storeURL, publication: publication)
                currentSlot.withLock { $0 = stream.slot }
                defer { currentSlot.withLock { $0 = nil } }
                relations = [:]
                backoff = 0.1
                // Commits made while no slot existed (after init stopped waiting, or after a
                // loss: any stream but the one init waited for) were not streamed: re-fetch once.
                let gap = start.withLock { s -> Bool in
                    defer { s = .streaming }
                    return s != .waiting
                }
                started.signal()
                if gap { reporter.read(.external) }
                try follow(stream)
                return
            } catch {
                // init returns without a slot: the first stream made later re-fetches.
                start.withLock { if $0 == .waiting { $0 = .gaveUp } }
                started.signal()
                guard !isStopped else { return }
                reporter.failed(.listenerDisconnected(store: store.storeURL.description, reason: "\(error)"), refetch: false)
                var descriptor = pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, Int32(backoff * 1000))
                backoff = min(backoff * 2, 5)
            }
        }
    }

    /// Hands over each commit of `stream` until woken.
    private func follow(_ stream: PostgreSQLReplicationStream) throws {
        var changes: [RowChange] = []
        var external = false
        while true {
            switch try stream.next(wakingOn: wake.readDescriptor) {
            case .woken: return
            case .idle: try stream.acknowledge()
            case .message(let message):
                switch message {
                case .begin:
                    changes.removeAll(keepingCapacity: true)
                    external = false
                case .relation(let relation):
                    relations[relation.oid] = map(relation)
                case .insert(let oid, let new):
                    record(oid, new: new, old: nil, type: .insert, into: &changes, external: &external)
                case .update(let oid, let old, let new):
                    record(oid, new: new, old: old, type: .update, into: &changes, external: &external)
                case .delete(let oid, let old):
                    record(oid, new: old, old: nil, type: .delete, into: &changes, external: &external)
                case .truncate(let oids):
                    if oids.contains(where: { (relations[$0] ?? nil) != nil }) { external = true }
                case .commit(let end):
                    deliver(changes, external: external, position: end)
                    try stream.acknowledge(end)
                case .other:
                    break
                }
            }
        }
    }

    /// The entity relation `relation` holds, when it is one of the schema's.
    private func map(_ relation: PGOutputMessage.Relation) -> Mapped? {
        guard relation.namespace == schema.schema, let known = schema.relations[relation.name] else { return nil }
        let positions = known.keyColumns.map { key in relation.columns.firstIndex(of: key.name) }
        return Mapped(entity: known.entity, relation: known, keyPositions: positions.contains(nil) ? nil : positions.map { $0! })
    }

    /// Adds one row change (an update whose key changed: a delete and an insert).
    private func record(_ oid: UInt32, new: [String?], old: [String?]?, type: HistoryChangeType,
                        into changes: inout [RowChange], external: inout Bool) {
        guard let mapped = relations[oid] ?? nil else { return }
        guard let positions = mapped.keyPositions else {
            external = true   // keyed by row position: which object changed cannot be told
            return
        }
        let key = positions.map { $0 < new.count ? new[$0] : nil }
        if let old {
            let oldKey = positions.map { $0 < old.count ? old[$0] : nil }
            if oldKey != key {
                changes.append(RowChange(mapped: mapped, key: oldKey, type: .delete))
                changes.append(RowChange(mapped: mapped, key: key, type: .insert))
                return
            }
        }
        changes.append(RowChange(mapped: mapped, key: key, type: type))
    }

    /// Turns one commit's row changes into a merge (or an external change) and hands it over.
    private func deliver(_ changes: [RowChange], external: Bool, position: UInt64) {
        if external {
            reporter.read(.external)
            return
        }
        guard !changes.isEmpty else { return }
        do {
            let ids = try objectIDs(changes)
            let transaction = HistoryTransaction(
                token: HistoryToken(Int64(truncatingIfNeeded: position)), timestamp: Date(), author: nil, origin: UUID(), processID: 0,
                changes: zip(changes, ids).compactMap { change, id in id.map { HistoryChange(objectID: $0, type: change.type) } })
            let set = HistoryChangeSet([transaction])
            guard !set.isEmpty else { return }
            let token = HistoryToken(Int64(truncatingIfNeeded: position))
            reporter.read(.merge(try set.saveChanges(reading: store), tokens: token...token))
        } catch {
            reporter.failed(.objectsUnreadable(store: store.storeURL.description, reason: "\(error)"), refetch: true)
        }
    }

    /// The object ID of each change (`nil` for a key that is `NULL` or not a number): integer
    /// keys read as they are, other keys hashed on the server as the store's queries hash them.
    private func objectIDs(_ changes: [RowChange]) throws -> [ObjectID?] {
        var ids = [ObjectID?](repeating: nil, count: changes.count)
        var hashed: [Int: [Int]] = [:]   // entity → indices of its changes
        for (n, change) in changes.enumerated() {
            if case .integer = change.mapped.relation.key {
                ids[n] = change.key[0].flatMap(Int64.init).map { ObjectID(entityIndex: change.mapped.entity, primaryKey: $0) }
            } else {
                hashed[change.mapped.entity, default: []].append(n)
            }
        }
        for (entity, indices) in hashed {
            let relation = changes[indices[0]].mapped.relation
            let columns = relation.keyColumns
            var b = PGBindings()
            for c in columns.indices { b.append(indices.map { changes[$0].key[c] ?? "" }) }
            let arrays = columns.indices.map { "$\($0 + 1)::text[]" }.joined(separator: ", ")
            let names = columns.indices.map { "k\($0)" }
            let text = columns.count == 1
                ? "k.k0::\(columns[0].type)::text"
                : "ROW(\(columns.enumerated().map { "k.k\($0.offset)::\($0.element.type)" }.joined(separator: ", ")))::text"
            let keys = try store.read { connection in
                try connection.query("SELECT \(ForeignPostgreSQLSchema.hashed(text)) FROM unnest(\(arrays)) AS k(\(names.joined(separator: ", ")))", b)
                    .map { try $0[0].decode(Int64.self) }
            }
            for (i, n) in indices.enumerated() where i < keys.count && changes[n].key.allSatisfy({ $0 != nil }) {
                ids[n] = ObjectID(entityIndex: entity, primaryKey: keys[i])
            }
        }
        return ids
    }
}
