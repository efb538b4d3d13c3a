import Foundation

/// A value computed from one object's own attributes: the right-hand side of a batch update
/// (`price * 1.1`, `uppercase(name)`, `coalesce(note, 'none')`), Core Data's `NSExpression`
/// in `NSBatchUpdateRequest.propertiesToUpdate`.
///
/// Parse one with ``init(parsing:)``. The grammar:
/// ```
/// expr    := term (("+" | "-") term)*
/// term    := unary (("*" | "/") unary)*
/// unary   := "-" unary | primary
/// primary := number | string | TRUE | FALSE | NIL | NULL | key
///          | NAME "(" [expr ("," expr)*] ")" | "(" expr ")"
/// ```
/// A key is an attribute of the updated entity; any name can be written in backticks:
/// ```
/// `a key` * 2
/// ```
/// Semantics (the same on every store, since each computes values the same way):
/// - `nil` in, `nil` out: an operand that is `nil` makes the result `nil` (as in SQL), except in
///   `coalesce`.
/// - Integers stay integers under `+`, `-` and `*`, and overflow is an error, never a wrap;
///   `/` always gives a double (as `NSExpression`'s `divide:by:` does); dividing by zero is an
///   error. Decimals stay decimal; a double with a decimal gives a double.
/// - `+` joins two strings; a date plus or minus a number of seconds is a date.
/// - Functions: `uppercase`, `lowercase`, `trim`, `length` (characters), `abs`, `round` (half
///   away from zero), `floor`, `ceiling`, `min`, `max` (of two or more), `coalesce` (the first
///   that is not `nil`), `concat` (strings), `now()` (one instant for the whole request).
public indirect enum ValueExpression: Sendable, Hashable, CustomStringConvertible {
    /// A fixed value.
    case constant(Value)
    /// The value of an attribute of the object itself.
    case key(String)
    /// The negation of a number.
    case negate(ValueExpression)
    /// Two operands combined.
    case arithmetic(ArithmeticOperator, ValueExpression, ValueExpression)
    /// A function applied to its arguments.
    case function(ExpressionFunction, [ValueExpression])

    /// Parses `source` (see the type's grammar).
    /// - Throws: ``QueryError`` naming the column at fault.
    public init(parsing source: String) throws {
        var parser = try ValueExpressionParser(source)
        self = try parser.parseWhole()
    }

    /// The keys the expression reads, in order of first use.
    public var keys: [String] {
        var seen: [String] = []
        func walk(_ e: ValueExpression) {
            switch e {
            case .constant: return
            case .key(let k): if !seen.contains(k) { seen.append(k) }
            case .negate(let x): walk(x)
            case .arithmetic(_, let l, let r): walk(l); walk(r)
            case .function(_, let args): args.forEach(walk)
            }
        }
        walk(self)
        return seen
    }

    /// The expression in the grammar ``init(parsing:)`` reads (keys in backticks when needed).
    public var description: String {
        switch self {
        case .constant(let v): return PredicateFormatter.literal(v)
        case .key(let k): return PredicateFormatter.keyPath(k)
        case .negate(let x): return "-\(x.operandDescription)"
        case .arithmetic(let op, let l, let r): return "\(l.operandDescription) \(op.rawValue) \(r.operandDescription)"
        case .function(let f, let args): return "\(f.rawValue)(\(args.map(\.description).joined(separator: ", ")))"
        }
    }

    private var operandDescription: String {
        if case .arithmetic = self { return "(\(description))" }
        return description
    }
}

/// An operator of ``ValueExpression/arithmetic(_:_:_:)``.
public enum ArithmeticOperator: String, Sendable, Hashable {
    /// Addition (and the joining of two strings, and a date moved by seconds).
    case add = "+"
    /// Subtraction (and a date moved back by seconds).
    case subtract = "-"
    /// Multiplication.
    case multiply = "*"
    /// Division: always a double.
    case divide = "/"
}

/// A function of ``ValueExpression/function(_:_:)``.
public enum ExpressionFunction: String, Sendable, Hashable, CaseIterable {
    /// The string in capitals (Unicode case mapping).
    case uppercase
    /// The string in small letters (Unicode case mapping).
    case lowercase
    /// The string without leading and trailing white space.
    case trim
    /// The number of characters of a string.
    case length
    /// The absolute value of a number.
    case abs
    /// A number rounded to the nearest whole number, halves away from zero.
    case round
    /// The largest whole number not above a number.
    case floor
    /// The smallest whole number not below a number.
    case ceiling
    /// The least of two or more values (`nil` if any is `nil`).
    case min
    /// The greatest of two or more values (`nil` if any is `nil`).
    case max
    /// The first argument that is not `nil`.
    case coalesce
    /// Strings joined (`nil` if any is `nil`).
    case concat
    /// The instant the request runs (the same for every object).
    case now

    /// How many arguments the function takes.
    var arity: ClosedRange<Int> {
        switch self {
        case .now: return 0...0
        case .min, .max, .coalesce, .concat: return 2...Int.max
        default: return 1...1
        }
    }
}
