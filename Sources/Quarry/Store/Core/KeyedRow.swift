/// What kind of value one sort key of a ``KeyedRow`` holds, so a reader can take integers,
/// doubles and strings without building a ``Value`` per row.
public enum KeyedRowKind: Sendable, Equatable {
    /// No value (`nil`).
    case null
    /// An integer: read it with ``KeyedRow/int64(ofKey:)``.
    case integer
    /// A double: read it with ``KeyedRow/double(ofKey:)``.
    case double
    /// A string: read its UTF-8 bytes with ``KeyedRow/withUTF8(ofKey:_:)``.
    case string
    /// Any other value: read it with ``KeyedRow/value(ofKey:)``.
    case other
}

/// One row of ``PersistentStore/forEachKeyedRow(for:keyPaths:_:)``: an object ID and the
/// values of the requested key paths, read in place.
///
/// A row is valid only during the call it is passed to (a store may reuse it, or read it
/// straight from its cursor); copy out what must outlive the call.
public protocol KeyedRow {
    /// The row's primary key (see ``ObjectID/primaryKey``).
    var primaryKey: Int64 { get }
    /// The row's entity index (see ``ObjectID/entityIndex``).
    var entityIndex: Int32 { get }
    /// The kind of key `k`'s value.
    func kind(ofKey k: Int) -> KeyedRowKind
    /// Key `k` as an integer (meaningful when its kind is ``KeyedRowKind/integer``).
    func int64(ofKey k: Int) -> Int64
    /// Key `k` as a double (meaningful when its kind is ``KeyedRowKind/double``).
    func double(ofKey k: Int) -> Double
    /// Calls `body` with key `k`'s UTF-8 bytes (meaningful when its kind is
    /// ``KeyedRowKind/string``; the bytes are valid only during the call).
    func withUTF8<R>(ofKey k: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R
    /// Key `k` as a ``Value`` (any kind; the slow path).
    func value(ofKey k: Int) -> Value
}

extension KeyedRow {
    /// The row's object ID.
    public var objectID: ObjectID { ObjectID(entityIndex: Int(entityIndex), primaryKey: primaryKey) }
}

/// A ``KeyedRow`` over an ID and its key values already read (the stores without a cursor to
/// read from; see ``PersistentStore/forEachKeyedRow(for:keyPaths:_:)``'s default).
public struct ValuesKeyedRow: KeyedRow {
    /// The row's object ID.
    public var id: ObjectID
    /// The row's key values, one per key path.
    public var keys: [Value]

    /// The row of `id` with key values `keys`.
    public init(id: ObjectID, keys: [Value]) {
        self.id = id
        self.keys = keys
    }

    /// The ID's primary key.
    public var primaryKey: Int64 { id.primaryKey }
    /// The ID's entity index.
    public var entityIndex: Int32 { id.entityIndex }

    /// The kind of `keys[k]`.
    public func kind(ofKey k: Int) -> KeyedRowKind {
        switch keys[k] {
        case .null: return .null
        case .integer: return .integer
        case .double: return .double
        case .string: return .string
        default: return .other
        }
    }

    /// `keys[k]`'s integer (0 for another kind).
    public func int64(ofKey k: Int) -> Int64 {
        if case .integer(let x) = keys[k] { return x }
        return 0
    }

    /// `keys[k]`'s double (0 for another kind).
    public func double(ofKey k: Int) -> Double {
        if case .double(let x) = keys[k] { return x }
        return 0
    }

    /// `keys[k]`'s UTF-8 bytes (empty for another kind).
    public func withUTF8<R>(ofKey k: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard case .string(var s) = keys[k] else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try s.withUTF8(body)
    }

    /// `keys[k]`.
    public func value(ofKey k: Int) -> Value { keys[k] }
}
