#if PostgreSQL
import Foundation
import NIOCore
import PostgresNIO

/// How values go into and come out of a PostgreSQL store's columns (see ``PostgreSQLStore``
/// for the types), shadow columns included.
enum PostgreSQLValues {
    /// Appends `value` as a column of `kind` stores it.
    static func append(_ value: Value, kind: PostgreSQLLayout.Kind, to b: inout PostgresBindings) {
        switch kind {
        case .integer:
            switch value {
            case .integer(let i): b.append(i)
            case .bool(let x): b.append(Int64(x ? 1 : 0))
            case .double(let d): if let i = Int64(exactly: d) { b.append(i) } else { b.appendNull() }
            default: b.appendNull()
            }
        case .real:
            switch value {
            case .double(let d): b.append(d)
            case .date(let d): b.append(d.timeIntervalSinceReferenceDate)
            case .integer(let i): b.append(Double(i))
            case .decimal(let d): b.append(NSDecimalNumber(decimal: d.decimal).doubleValue)
            default: b.appendNull()
            }
        case .text:
            if case .decimal(let d) = value { b.append(d.description) } else if let text = ValueOrdering.text(of: value) { b.append(text) } else { b.appendNull() }
        case .blob:
            if case .data(let d) = value { b.append(ByteBuffer(bytes: d)) } else { b.appendNull() }
        }
    }

    /// Appends the five shadow values of a text column holding `value` (see ``PostgreSQLStore``).
    static func appendShadows(_ value: Value, to b: inout PostgresBindings) {
        guard let text = ValueOrdering.text(of: value) else {
            for _ in 0..<5 { b.appendNull() }
            return
        }
        for form in [text.precomposedStringWithCanonicalMapping, StringMatching.fold(text, .caseInsensitive),
                     StringMatching.fold(text, .diacriticInsensitive), StringMatching.fold(text, [.caseInsensitive, .diacriticInsensitive])] {
            // Byte equality (Swift's `==` is canonical equivalence): NULL means "the value itself".
            if form.utf8.elementsEqual(text.utf8) { b.appendNull() } else { b.append(form) }
        }
        b.append(ByteBuffer(bytes: PostgreSQLStandardSortKey.key(text)))
    }

    /// Appends the values of `columns` (and their shadows) from `snapshot`.
    static func append(_ columns: [PostgreSQLLayout.SlotColumn], of snapshot: Snapshot, to b: inout PostgresBindings) {
        for column in columns {
            switch column.slot {
            case .attribute(let i), .transformed(let i, _):
                append(snapshot.values[i], kind: column.kind, to: &b)
                if column.shadowed { appendShadows(snapshot.values[i], to: &b) }
            case .toOneKey(let r):
                if let id = snapshot.toOne[r] { b.append(id.primaryKey) } else { b.appendNull() }
            case .toOneEntity(let r):
                if let id = snapshot.toOne[r] { b.append(Int64(id.entityIndex)) } else { b.appendNull() }
            }
        }
    }

    /// How many binds ``append(_:of:to:)`` makes for `columns`.
    static func bindCount(_ columns: [PostgreSQLLayout.SlotColumn]) -> Int {
        columns.reduce(0) { $0 + ($1.shadowed ? 6 : 1) }
    }

    /// The value of `cell` as an attribute of `type` (`.null` for SQL `NULL`).
    static func decode(_ cell: PostgresCell, type: AttributeType) -> Value {
        guard cell.bytes != nil else { return .null }
        switch type {
        case .integer16, .integer32, .integer64: return (try? cell.decode(Int64.self)).map(Value.integer) ?? .null
        case .boolean: return (try? cell.decode(Int64.self)).map { .bool($0 != 0) } ?? .null
        case .double, .float: return (try? cell.decode(Double.self)).map(Value.double) ?? .null
        case .date: return (try? cell.decode(Double.self)).map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null
        case .string: return (try? cell.decode(String.self)).map(Value.string) ?? .null
        case .decimal:
            return (try? cell.decode(String.self)).flatMap { ScaledDecimal(string: $0) }.map(Value.decimal) ?? .null
        case .uuid: return (try? cell.decode(String.self)).flatMap(UUID.init(uuidString:)).map(Value.uuid) ?? .null
        case .uri: return (try? cell.decode(String.self)).flatMap { URL(string: $0) }.map(Value.uri) ?? .null
        case .transformable: return (try? cell.decode(String.self)).flatMap { try? JSONValue(jsonText: $0) }.map(Value.json) ?? .null
        case .binary: return (try? cell.decode(Data.self)).map(Value.data) ?? .null
        case .undefined: return .null
        }
    }

    /// `cell` as an integer (`nil` for `NULL`).
    static func integer(_ cell: PostgresCell) -> Int64? {
        guard cell.bytes != nil else { return nil }
        return try? cell.decode(Int64.self)
    }
}

/// One parameter of a compiled query, appended to the bindings in order (`$1`, `$2`, …).
enum PostgreSQLParameter: Sendable {
    case integer(Int64)
    case double(Double)
    case text(String)
    case bytes(Data)
    case integers([Int64])
    case doubles([Double])
    case texts([String])

    /// `parameters` as bindings.
    static func bindings(_ parameters: [PostgreSQLParameter]) -> PostgresBindings {
        var b = PostgresBindings(capacity: parameters.count)
        for p in parameters {
            switch p {
            case .integer(let i): b.append(i)
            case .double(let d): b.append(d)
            case .text(let t): b.append(t)
            case .bytes(let d): b.append(ByteBuffer(bytes: d))
            case .integers(let a): b.append(a)
            case .doubles(let a): b.append(a)
            case .texts(let a): b.append(a)
            }
        }
        return b
    }
}

/// Collects what a streamed query's rows decode to: written only by the row callback on the
/// connection's event loop while the caller blocks in the pool's `wait()`, read by the caller
/// after it returns (the future's completion orders the two), so it is never shared.
final class PostgreSQLRowSink<T>: @unchecked Sendable {
    var items: [T] = []
}
#endif
