/// Refuses comparisons whose operands cannot meaningfully be compared (`price > 'abc'`,
/// `name == 5`, `listed < 'soon'`, `price CONTAINS '1'`): they would silently select nothing
/// (or everything) in one back end and differ in the other. Run by both back ends before a
/// comparison is compiled, so a parsed predicate's error names the column of the operand at fault.
///
/// Allowed: numbers with numbers, Booleans and dates (dates are stored as seconds, as Core
/// Data's `NSNumber` bridging allows); text with strings, UUIDs and URIs; `nil` with anything;
/// transformable attributes, relationships and `@count` never refuse a number. Collection
/// operators and subqueries are typed by what they compute (``CollectionOperator``).
enum PredicateTypeCheck {
    /// What a value or attribute compares as.
    enum Kind: Equatable {
        case number, text, binary, any
    }

    static func check(_ c: PredicateComparison, entity: EntityDescription, model: ManagedObjectModel) throws {
        try PredicateQuantifierCheck.check(c, entity: entity, model: model)
        let left = try type(of: c.lhs, entity: entity, model: model)
        let right = try type(of: c.rhs, entity: entity, model: model)
        if c.op.isStringOperator {
            if let (path, type) = left, kind(of: type) != .text && kind(of: type) != .any {
                throw QueryError.mismatchedTypes(column: c.columns?.lhs,
                    reason: "\(c.op.rawValue) needs text, but '\(path)' is a \(type.rawValue) attribute")
            }
            if case .constant(let v) = c.rhs, kind(of: v) != .text, kind(of: v) != .any {
                throw QueryError.mismatchedTypes(column: c.columns?.rhs,
                    reason: "\(c.op.rawValue) needs a string, not \(describe(v))")
            }
            return
        }
        switch (left, right) {
        case (let (path, type)?, nil):
            try checkConstants(c.rhs, against: type, path: path, columns: c.columns, rhsSide: true)
        case (nil, let (path, type)?):
            try checkConstants(c.lhs, against: type, path: path, columns: c.columns, rhsSide: false)
        case (let (lp, lt)?, let (rp, rt)?):
            let (lk, rk) = (kind(of: lt), kind(of: rt))
            guard lk == rk || lk == .any || rk == .any else {
                throw QueryError.mismatchedTypes(column: c.columns?.rhs,
                    reason: "cannot compare '\(lp)' (\(lt.rawValue)) with '\(rp)' (\(rt.rawValue))")
            }
        case (nil, nil):
            return
        }
    }

    /// The constants of `operand` (one, or a list's items) checked against an attribute type.
    private static func checkConstants(_ operand: Operand, against type: AttributeType, path: String,
                                       columns: SourceColumns?, rhsSide: Bool) throws {
        let expected = kind(of: type)
        guard expected != .any else { return }
        let column = rhsSide ? columns?.rhs : columns?.lhs
        func check(_ v: Value, at column: Int?) throws {
            let k = kind(of: v)
            guard k != expected, k != .any else { return }
            throw QueryError.mismatchedTypes(column: column,
                reason: "cannot compare '\(path)' (\(type.rawValue)) with \(describe(v))")
        }
        switch operand {
        case .constant(let v): try check(v, at: column)
        case .list(let items):
            for (n, item) in items.enumerated() {
                guard case .constant(let v) = item else { continue }
                let itemColumns = rhsSide ? columns?.rhsItems ?? [] : []
                try check(v, at: n < itemColumns.count ? itemColumns[n] : column)
            }
        default: return
        }
    }

    /// The type of the value a key path or subquery operand reads, with its text for
    /// messages (`nil` for constants and relationships, which are not checked against
    /// constants). A count is an integer; `@sum` a number, `@avg` a double, `@min`/`@max`
    /// the attribute's type (a date stays a date).
    private static func type(of operand: Operand, entity: EntityDescription, model: ManagedObjectModel) throws -> (String, AttributeType)? {
        switch operand {
        case .keyPath(let path):
            return try KeyPathPlan(path, entity: entity, model: model).valueType.map { (path, $0) }
        case .subquery(let s):
            return (PredicateFormatter.format(.subquery(s)), try SubqueryPlan(s, entity: entity, model: model).valueType)
        case .constant, .list, .variable:
            return nil
        }
    }

    static func kind(of type: AttributeType) -> Kind {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean, .date: return .number
        case .string, .uuid, .uri: return .text
        case .binary: return .binary
        case .transformable, .undefined: return .any
        }
    }

    static func kind(of value: Value) -> Kind {
        switch value {
        case .null, .json: return .any
        case .integer, .double, .decimal, .bool, .date: return .number
        case .string, .uuid, .uri: return .text
        case .data: return .binary
        }
    }

    private static func describe(_ v: Value) -> String {
        switch v {
        case .string(let s): return "the string '\(s)'"
        case .integer, .double, .decimal: return "the number \(v)"
        case .bool(let b): return "the Boolean \(b ? "TRUE" : "FALSE")"
        case .date: return "the date \(v)"
        case .data: return "binary data"
        case .uuid: return "the UUID \(v)"
        case .uri: return "the URI \(v)"
        case .null, .json: return "\(v)"
        }
    }
}
