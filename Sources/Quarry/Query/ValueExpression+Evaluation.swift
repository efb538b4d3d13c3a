import Foundation

/// Why a ``ValueExpression`` could not be computed: a type it cannot combine, an integer
/// overflow, a division by zero. The message names the operation and the operands' kinds.
public struct ValueExpressionError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public let reason: String

    /// Creates an error.
    public init(_ reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { reason }
}

/// The kind of value an expression gives, for checking it before any object is read.
enum ValueKind: String, Equatable {
    case integer, double, decimal, string, date, boolean, data, other
    /// `nil`: the constant `NIL` (fits every kind).
    case null

    /// The kind an attribute of `type` holds.
    init(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64: self = .integer
        case .double, .float: self = .double
        case .decimal: self = .decimal
        case .string: self = .string
        case .date: self = .date
        case .boolean: self = .boolean
        case .binary: self = .data
        default: self = .other
        }
    }

    /// The kind of `value`.
    init(_ value: Value) {
        switch value {
        case .null: self = .null
        case .integer: self = .integer
        case .double: self = .double
        case .decimal: self = .decimal
        case .string: self = .string
        case .date: self = .date
        case .bool: self = .boolean
        case .data: self = .data
        default: self = .other
        }
    }

    var isNumber: Bool { self == .integer || self == .double || self == .decimal }

    /// The kind two numbers combine to: double if either is, else decimal if either is.
    static func widened(_ a: ValueKind, _ b: ValueKind) -> ValueKind {
        if a == .null { return b }
        if b == .null { return a }
        if a == .double || b == .double { return .double }
        if a == .decimal || b == .decimal { return .decimal }
        return .integer
    }

    /// Whether a result of this kind can be stored in an attribute of `type` (a number in a
    /// number attribute is checked once more per value: `2.5` is no integer).
    func fits(_ type: AttributeType) -> Bool {
        let target = ValueKind(type)
        if self == .null || self == target { return true }
        return isNumber && target.isNumber
    }
}

extension ValueExpression {
    /// The kind of the expression's result, checked against the kinds of the keys it reads.
    /// - Throws: ``ValueExpressionError`` naming the operation and the kinds that do not
    ///   combine, or a key `kind(of:)` does not know (it throws its own error for that).
    func kind(keys kindOf: (String) throws -> ValueKind) throws -> ValueKind {
        switch self {
        case .constant(let v): return ValueKind(v)
        case .key(let k): return try kindOf(k)
        case .negate(let x):
            let k = try x.kind(keys: kindOf)
            guard k.isNumber || k == .null else { throw ValueExpressionError("cannot negate a \(k.rawValue)") }
            return k
        case .arithmetic(let op, let l, let r):
            return try Self.kind(of: op, try l.kind(keys: kindOf), try r.kind(keys: kindOf))
        case .function(let f, let args):
            return try Self.kind(of: f, try args.map { try $0.kind(keys: kindOf) })
        }
    }

    private static func kind(of op: ArithmeticOperator, _ a: ValueKind, _ b: ValueKind) throws -> ValueKind {
        if (a.isNumber || a == .null) && (b.isNumber || b == .null) {
            if op == .divide { return ValueKind.widened(a, b) == .decimal ? .decimal : .double }
            return ValueKind.widened(a, b)
        }
        switch (op, a, b) {
        case (.add, .string, .string), (.add, .string, .null), (.add, .null, .string): return .string
        // One pattern per case: a `where` guards only the last pattern of its case.
        case (.add, .date, let n) where n.isNumber || n == .null: return .date
        case (.subtract, .date, let n) where n.isNumber || n == .null: return .date
        case (.add, let n, .date) where n.isNumber: return .date
        case (.subtract, .date, .date): return .double
        default: throw ValueExpressionError("cannot \(op.verb) a \(a.rawValue) and a \(b.rawValue)")
        }
    }

    private static func kind(of f: ExpressionFunction, _ args: [ValueKind]) throws -> ValueKind {
        func require(_ ok: (ValueKind) -> Bool, _ what: String) throws {
            if let bad = args.first(where: { !ok($0) && $0 != .null }) {
                throw ValueExpressionError("\(f.rawValue) needs \(what), not a \(bad.rawValue)")
            }
        }
        switch f {
        case .uppercase, .lowercase, .trim, .concat:
            try require({ $0 == .string }, "strings")
            return .string
        case .length:
            try require({ $0 == .string }, "a string")
            return .integer
        case .abs, .round, .floor, .ceiling:
            try require(\.isNumber, "a number")
            return args[0]
        case .now:
            return .date
        case .min, .max, .coalesce:
            let known = args.filter { $0 != .null }
            guard let first = known.first else { return .null }
            if known.allSatisfy(\.isNumber) { return known.reduce(first, ValueKind.widened) }
            guard known.allSatisfy({ $0 == first }) else {
                throw ValueExpressionError("\(f.rawValue) needs values of one kind, not \(known.map(\.rawValue).joined(separator: " and "))")
            }
            return first
        }
    }

    /// The expression's value for one object: `read` gives the object's value of a key, `now`
    /// the request's instant.
    /// - Throws: ``ValueExpressionError`` for an overflow, a division by zero or a value of a
    ///   kind the operation does not take.
    func evaluate(_ read: (String) -> Value, now: Date) throws -> Value {
        switch self {
        case .constant(let v): return v
        case .key(let k): return read(k)
        case .negate(let x):
            switch try x.evaluate(read, now: now) {
            case .null: return .null
            case .integer(let i):
                guard i != .min else { throw ValueExpressionError("integer overflow: -(\(i))") }
                return .integer(-i)
            case .double(let d): return .double(-d)
            case .decimal(let d): return .decimal(-d.decimal)
            case let v: throw ValueExpressionError("cannot negate \(v)")
            }
        case .arithmetic(let op, let l, let r):
            return try Self.apply(op, try l.evaluate(read, now: now), try r.evaluate(read, now: now))
        case .function(let f, let args):
            return try Self.apply(f, try args.map { try $0.evaluate(read, now: now) }, now: now)
        }
    }

    private static func apply(_ op: ArithmeticOperator, _ a: Value, _ b: Value) throws -> Value {
        if case .null = a { return .null }
        if case .null = b { return .null }
        switch (op, a, b) {
        case (.add, .string(let x), .string(let y)): return .string(x + y)
        case (.add, .date(let d), _), (.subtract, .date(let d), _):
            if op == .subtract, case .date(let e) = b { return .double(d.timeIntervalSince(e)) }
            guard let seconds = double(b) else { break }
            return .date(d.addingTimeInterval(op == .add ? seconds : -seconds))
        case (.add, _, .date(let d)):
            guard let seconds = double(a) else { break }
            return .date(d.addingTimeInterval(seconds))
        default: break
        }
        switch (a, b) {
        case (.integer(let x), .integer(let y)) where op != .divide:
            let (result, overflow): (Int64, Bool)
            switch op {
            case .add: (result, overflow) = x.addingReportingOverflow(y)
            case .subtract: (result, overflow) = x.subtractingReportingOverflow(y)
            default: (result, overflow) = x.multipliedReportingOverflow(by: y)
            }
            guard !overflow else { throw ValueExpressionError("integer overflow: \(x) \(op.rawValue) \(y)") }
            return .integer(result)
        default: break
        }
        // A decimal with a decimal or an integer stays exact.
        if isDecimal(a) || isDecimal(b), let x = decimal(a), let y = decimal(b) {
            if op == .divide, y == 0 { throw ValueExpressionError("division by zero: \(a) / \(b)") }
            switch op {
            case .add: return .decimal(x + y)
            case .subtract: return .decimal(x - y)
            case .multiply: return .decimal(x * y)
            case .divide: return .decimal(x / y)
            }
        }
        guard let x = double(a), let y = double(b) else {
            throw ValueExpressionError("cannot \(op.verb) \(a) and \(b)")
        }
        switch op {
        case .add: return .double(x + y)
        case .subtract: return .double(x - y)
        case .multiply: return .double(x * y)
        case .divide:
            guard y != 0 else { throw ValueExpressionError("division by zero: \(a) / \(b)") }
            return .double(x / y)
        }
    }

    private static func apply(_ f: ExpressionFunction, _ args: [Value], now: Date) throws -> Value {
        switch f {
        case .now: return .date(now)
        case .coalesce: return args.first { if case .null = $0 { return false } else { return true } } ?? .null
        default: break
        }
        if args.contains(where: { if case .null = $0 { return true } else { return false } }) { return .null }
        switch f {
        case .uppercase, .lowercase, .trim, .length:
            guard case .string(let s) = args[0] else { throw ValueExpressionError("\(f.rawValue) needs a string, not \(args[0])") }
            switch f {
            case .uppercase: return .string(s.uppercased())
            case .lowercase: return .string(s.lowercased())
            case .trim: return .string(s.trimmingCharacters(in: .whitespacesAndNewlines))
            default: return .integer(Int64(s.count))
            }
        case .concat:
            var joined = ""
            for a in args {
                guard case .string(let s) = a else { throw ValueExpressionError("concat needs strings, not \(a)") }
                joined += s
            }
            return .string(joined)
        case .abs:
            switch args[0] {
            case .integer(let i):
                guard i != .min else { throw ValueExpressionError("integer overflow: abs(\(i))") }
                return .integer(Swift.abs(i))
            case .double(let d): return .double(Swift.abs(d))
            case .decimal(let d): return .decimal(Swift.abs(d.decimal))
            case let v: throw ValueExpressionError("abs needs a number, not \(v)")
            }
        case .round, .floor, .ceiling:
            let rule: FloatingPointRoundingRule = f == .round ? .toNearestOrAwayFromZero : f == .floor ? .down : .up
            switch args[0] {
            case .integer: return args[0]
            case .double(let d): return .double(d.rounded(rule))
            case .decimal(let d):
                var input = d.decimal, output = Decimal()
                NSDecimalRound(&output, &input, 0, f == .round ? .plain : f == .floor ? .down : .up)
                return .decimal(output)
            case let v: throw ValueExpressionError("\(f.rawValue) needs a number, not \(v)")
            }
        case .min, .max:
            var best = args[0]
            for v in args.dropFirst() {
                let c = ValueOrdering.compare(v, best)
                if (f == .min && c < 0) || (f == .max && c > 0) { best = v }
            }
            // Numbers of mixed kinds give the widest kind, as the static check says.
            if args.allSatisfy({ double($0) != nil }) {
                if args.contains(where: { if case .double = $0 { return true } else { return false } }) {
                    return double(best).map(Value.double) ?? best
                }
                if args.contains(where: isDecimal) {
                    return decimal(best).map(Value.decimal) ?? best
                }
            }
            return best
        case .now, .coalesce: return .null // handled above
        }
    }

    private static func isDecimal(_ v: Value) -> Bool {
        if case .decimal = v { return true }
        return false
    }

    /// A number as a double (``Value/numericValue``), booleans left out: they are no numbers here.
    private static func double(_ v: Value) -> Double? {
        if case .bool = v { return nil }
        return v.numericValue
    }

    private static func decimal(_ v: Value) -> Decimal? {
        switch v {
        case .integer(let i): return Decimal(i)
        case .decimal(let d): return d.decimal
        default: return nil
        }
    }
}

extension ArithmeticOperator {
    /// The operation as a verb, for error messages.
    var verb: String {
        switch self {
        case .add: return "add"
        case .subtract: return "subtract"
        case .multiply: return "multiply"
        case .divide: return "divide"
        }
    }
}
