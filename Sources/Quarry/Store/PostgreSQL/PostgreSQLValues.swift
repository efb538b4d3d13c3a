import Foundation

/// How values go into and come out of a PostgreSQL store's columns (see ``PostgreSQLStore``
/// for the types), shadow columns included.
enum PostgreSQLValues {
    /// Appends `value` as a column of `kind` stores it.
    static func append<W: PGFieldWriter>(_ value: Value, kind: PostgreSQLLayout.Kind, to b: inout W) {
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
            if case .data(let d) = value { b.append(d) } else { b.appendNull() }
        }
    }

    /// Appends the five shadow values of a text column holding `value` (see ``PostgreSQLStore``).
    static func appendShadows<W: PGFieldWriter>(_ value: Value, to b: inout W) {
        guard let text = ValueOrdering.text(of: value) else {
            for _ in 0..<5 { b.appendNull() }
            return
        }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: already NFC, nothing to strip for [d]; [c] and [cd] are its lowercase.
            let hasUpper = text.utf8.contains { $0 >= 0x41 && $0 <= 0x5A }
            let lower = hasUpper ? StringMatching.fold(text, .caseInsensitive) : nil
            b.appendNull()
            b.append(lower)
            b.appendNull()
            b.append(lower)
            b.append(bytes: PostgreSQLStandardSortKey.asciiKey(text))
            return
        }
        for form in [text.precomposedStringWithCanonicalMapping, StringMatching.fold(text, .caseInsensitive),
                     StringMatching.fold(text, .diacriticInsensitive), StringMatching.fold(text, [.caseInsensitive, .diacriticInsensitive])] {
            // Byte equality (Swift's `==` is canonical equivalence): NULL means "the value itself".
            if form.utf8.elementsEqual(text.utf8) { b.appendNull() } else { b.append(form) }
        }
        b.append(bytes: PostgreSQLStandardSortKey.key(text))
    }

    /// Appends the values of `columns` (and their shadows) from `snapshot`.
    static func append<W: PGFieldWriter>(_ columns: [PostgreSQLLayout.SlotColumn], of snapshot: Snapshot, to b: inout W) {
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
    /// - Throws: ``ColumnDecodingError`` naming the column when the value does not have the
    ///   attribute's type (never read as `NULL`).
    static func decode(_ cell: PGCell, type: AttributeType) throws -> Value {
        guard !cell.isNull else { return .null }
        switch type {
        case .integer16, .integer32, .integer64: return .integer(try read(cell, Int64.self, "integer"))
        case .boolean: return .bool(try read(cell, Int64.self, "boolean") != 0)
        case .double, .float: return .double(try read(cell, Double.self, "floating-point"))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: try read(cell, Double.self, "date")))
        case .string: return .string(try read(cell, String.self, "string"))
        case .decimal: return .decimal(try parse(cell, "decimal") { ScaledDecimal(string: $0) })
        case .uuid: return .uuid(try parse(cell, "UUID") { UUID(uuidString: $0) })
        case .uri: return .uri(try parse(cell, "URI") { URL(string: $0) })
        case .transformable:
            let text = try read(cell, String.self, "JSON")
            do {
                return .json(try JSONValue(jsonText: text))
            } catch {
                throw ColumnDecodingError(column: cell.columnName, expected: "JSON", reason: "\(error)")
            }
        case .binary: return .data(try read(cell, Data.self, "binary"))
        case .undefined: return .null
        }
    }

    /// `cell` as an integer (`nil` for `NULL`).
    /// - Throws: ``ColumnDecodingError`` naming the column when it holds no integer.
    static func integer(_ cell: PGCell) throws -> Int64? {
        guard !cell.isNull else { return nil }
        return try read(cell, Int64.self, "integer")
    }

    /// `cell` as text (`nil` for `NULL`).
    /// - Throws: ``ColumnDecodingError`` naming the column when it holds no text.
    static func text(_ cell: PGCell) throws -> String? {
        guard !cell.isNull else { return nil }
        return try read(cell, String.self, "string")
    }

    /// `cell` decoded as `type`, or an error naming its column.
    private static func read<T: PGDecodable>(_ cell: PGCell, _ type: T.Type, _ expected: String) throws -> T {
        do {
            return try cell.decode(T.self)
        } catch let error as ColumnDecodingError {
            throw ColumnDecodingError(column: error.column, expected: expected, reason: error.reason)
        }
    }

    /// `cell`'s text parsed by `parse`, or an error naming its column.
    private static func parse<T>(_ cell: PGCell, _ expected: String, _ parse: (String) -> T?) throws -> T {
        let text = try read(cell, String.self, expected)
        guard let value = parse(text) else {
            throw ColumnDecodingError(column: cell.columnName, expected: expected, reason: "'\(text.prefix(40))' is not one")
        }
        return value
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
    static func bindings(_ parameters: [PostgreSQLParameter]) -> PGBindings {
        var b = PGBindings(capacity: parameters.count)
        for p in parameters {
            switch p {
            case .integer(let i): b.append(i)
            case .double(let d): b.append(d)
            case .text(let t): b.append(t)
            case .bytes(let d): b.append(d)
            case .integers(let a): b.append(a)
            case .doubles(let a): b.append(a)
            case .texts(let a): b.append(a)
            }
        }
        return b
    }
}
