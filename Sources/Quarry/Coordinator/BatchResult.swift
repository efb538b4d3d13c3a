/// What a ``BatchUpdateRequest`` or ``BatchDeleteRequest`` did.
public struct BatchResult: Sendable {
    /// How many objects the request selected and changed (a delete's cascaded objects are
    /// not counted here; they are in ``changes``).
    public var count: Int
    /// The selected objects, in primary-key order, when the request asked for them
    /// (`returnsObjectIDs`); else `nil`.
    public var objectIDs: [ObjectID]?
    /// Everything the request committed, as a did-save carries it: updated objects with their
    /// new state, deleted objects (cascades included), and objects whose relationships a
    /// delete rule changed. Pass it to ``ObjectContext/merge(fromDidSave:)`` when the request
    /// did not merge itself (`mergesChanges == false`).
    public var changes: SaveChanges
    /// The persistent-history transaction the request appended (`nil` when the store records
    /// none, or when nothing was selected).
    public var historyToken: HistoryToken?

    /// Creates a result.
    public init(count: Int, objectIDs: [ObjectID]? = nil, changes: SaveChanges = SaveChanges(), historyToken: HistoryToken? = nil) {
        self.count = count
        self.objectIDs = objectIDs
        self.changes = changes
        self.historyToken = historyToken
    }
}

/// How far a batch request has come: `done` of `total` objects read and computed (or, for a
/// delete, planned), then `written` once the store has committed them.
public struct BatchProgress: Sendable, Equatable {
    /// Objects handled so far.
    public var done: Int
    /// Objects the request selected (a delete's cascades are added as they are found).
    public var total: Int
    /// Whether the store has committed the request.
    public var written: Bool

    /// Creates a progress report.
    public init(done: Int, total: Int, written: Bool) {
        self.done = done
        self.total = total
        self.written = written
    }
}

/// Why a batch update or delete was refused. Nothing was written.
public enum BatchRequestError: Error, Equatable, CustomStringConvertible {
    /// The model has no such entity.
    case invalidEntity(String)
    /// A key the request sets or reads is not an attribute it can use.
    case invalidKey(entity: String, key: String, reason: String)
    /// The expression for `key` cannot be computed for this attribute (a type it cannot
    /// combine, a result of the wrong kind).
    case invalidExpression(entity: String, key: String, expression: String, reason: String)
    /// Computing or storing the value of `key` failed for `count` objects (the first of them in
    /// `sample`): an overflow, a division by zero, a value out of its attribute's range, a
    /// required attribute or relationship left empty. `reason` is the first object's.
    case invalidValue(entity: String, key: String, reason: String, count: Int, sample: [ObjectID])
    /// A *deny* delete rule: `count` objects to be deleted (the first of them in `sample`) still
    /// hold objects through `relationship`.
    case denied(entity: String, relationship: String, count: Int, sample: [ObjectID])
    /// Other writers kept changing the selected objects: the request was tried `attempts`
    /// times, each time finding objects changed since it read them.
    case keptConflicting(attempts: Int)

    /// A message naming the entity, the key or relationship, and the objects at fault.
    public var description: String {
        func objects(_ entity: String, _ count: Int, _ sample: [ObjectID]) -> String {
            let keys = sample.map { String($0.primaryKey) }.joined(separator: ", ")
            return "\(count) \(entity) object(s) (primary key \(keys)\(count > sample.count ? ", …" : ""))"
        }
        switch self {
        case .invalidEntity(let e): return "no entity '\(e)' in the model"
        case .invalidKey(let e, let k, let why): return "'\(e).\(k)' \(why)"
        case .invalidExpression(let e, let k, let x, let why): return "cannot set '\(e).\(k)' to \(x): \(why)"
        case .invalidValue(let e, let k, let why, let count, let sample):
            let first = sample.first.map { " (primary key \($0.primaryKey))" } ?? ""
            return "'\(e).\(k)' \(why)\(first); \(objects(e, count, sample)) fail on '\(k)'; nothing was changed"
        case .denied(let e, let r, let count, let sample):
            return "delete denied: relationship '\(e).\(r)' (delete rule Deny) still holds objects, for \(objects(e, count, sample)); nothing was deleted"
        case .keptConflicting(let n): return "the objects kept changing under the request (\(n) attempts); nothing was changed"
        }
    }
}

/// The failures of one batch request, grouped by key, each with the first object's reason, a
/// count and the first few objects: a request over a million rows reports each key once, not a
/// million times.
struct BatchFailures {
    private var groups: [(entity: String, key: String, reason: String, count: Int, sample: [ObjectID])] = []
    /// Group index by entity and key.
    private var position: [String: Int] = [:]
    /// How many objects each failure names at most.
    static let sampleSize = 5

    /// Records that `id` fails `reason` on `key`.
    mutating func add(entity: String, key: String, reason: String, id: ObjectID) {
        let name = "\(entity)\u{0}\(key)"
        if let i = position[name] {
            groups[i].count += 1
            if groups[i].sample.count < Self.sampleSize { groups[i].sample.append(id) }
        } else {
            position[name] = groups.count
            groups.append((entity, key, reason, 1, [id]))
        }
    }

    /// Throws the first failure recorded (the others are of later keys or rows), if any.
    func throwFirst() throws {
        guard let first = groups.first else { return }
        throw BatchRequestError.invalidValue(entity: first.entity, key: first.key, reason: first.reason, count: first.count, sample: first.sample)
    }
}

extension StoreCoordinator {
    /// How many times a batch request runs when other writers change its objects between its
    /// read and its write (each write is checked against the row versions it read).
    static let batchAttempts = 3

    /// Runs `attempt` until it commits without an optimistic-locking conflict, at most
    /// ``batchAttempts`` times: each attempt reads the store afresh, so its result is as if
    /// the request ran alone at the moment of its last read.
    func retryingConflicts<T>(_ attempt: () throws -> T) throws -> T {
        for _ in 1..<Self.batchAttempts {
            do { return try attempt() } catch is MergeConflictError { continue }
        }
        do { return try attempt() } catch is MergeConflictError {
            throw BatchRequestError.keptConflicting(attempts: Self.batchAttempts)
        }
    }

    /// Commits a batch request's `changes`, every update and delete checked against the row
    /// version it was computed from (a conflict throws ``MergeConflictError``, and the request
    /// runs again); the stack is told (and merges) only when `notifies`.
    func commitBatch(_ changes: StoreChangeSet, notifies: Bool) throws -> StoreSaveResult {
        notifies ? try save(changes) { _ in .fail } : try store.save(changes) { _ in .fail }
    }
}
