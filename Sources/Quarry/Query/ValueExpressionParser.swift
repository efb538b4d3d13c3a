/// Reads the grammar of ``ValueExpression`` from the predicate language's tokens, and the
/// assignment lists of a batch update (`price = price * 1.1, name = uppercase(name)`).
struct ValueExpressionParser {
    private var tokens: [PredicateToken]
    private var position = 0
    /// How many `(` and signs are open: bounded, so deep input is an error, never a stack overflow.
    private var nesting = 0

    init(_ source: String) throws {
        tokens = try PredicateTokenizer.tokenize(source)
    }

    /// One expression filling the whole source.
    mutating func parseWhole() throws -> ValueExpression {
        let e = try parseSum()
        guard case .end = current.kind else { throw unexpected("an operator or the end") }
        return e
    }

    /// `KEY = EXPR (, KEY = EXPR)*` filling the whole source, in order; a key named twice is an error.
    mutating func parseAssignments() throws -> [(key: String, value: ValueExpression)] {
        var assignments: [(key: String, value: ValueExpression)] = []
        repeat {
            if !assignments.isEmpty { position += 1 }
            let keyToken = current
            let key: String
            switch keyToken.kind {
            case .identifier(let k), .quotedIdentifier(let k): key = k
            default: throw unexpected("a key to set")
            }
            position += 1
            guard isSymbol("=") || isSymbol("==") else { throw unexpected("'=' after '\(key)'") }
            position += 1
            if assignments.contains(where: { $0.key == key }) {
                throw QueryError.unexpected(token: key, column: keyToken.column, expected: "a key not set twice")
            }
            assignments.append((key, try parseSum()))
        } while isSymbol(",")
        guard case .end = current.kind else { throw unexpected("',' or the end") }
        return assignments
    }

    private var current: PredicateToken { tokens[position] }

    private func unexpected(_ expected: String) -> QueryError {
        .unexpected(token: current.text, column: current.column, expected: expected)
    }

    private func isSymbol(_ s: String) -> Bool {
        if case .symbol(let x) = current.kind { return x == s }
        return false
    }

    private mutating func deeper() throws {
        nesting += 1
        if nesting > ObjectPredicate.maximumNesting {
            throw QueryError.tooDeep(limit: ObjectPredicate.maximumNesting, column: current.column)
        }
    }

    private mutating func parseSum() throws -> ValueExpression {
        var e = try parseProduct()
        while isSymbol("+") || isSymbol("-") {
            let op: ArithmeticOperator = isSymbol("+") ? .add : .subtract
            position += 1
            e = .arithmetic(op, e, try parseProduct())
        }
        return e
    }

    private mutating func parseProduct() throws -> ValueExpression {
        var e = try parseUnary()
        while isSymbol("*") || isSymbol("/") {
            let op: ArithmeticOperator = isSymbol("*") ? .multiply : .divide
            position += 1
            e = .arithmetic(op, e, try parseUnary())
        }
        return e
    }

    private mutating func parseUnary() throws -> ValueExpression {
        guard isSymbol("-") else { return try parsePrimary() }
        position += 1
        try deeper()
        defer { nesting -= 1 }
        return .negate(try parseUnary())
    }

    private mutating func parsePrimary() throws -> ValueExpression {
        let token = current
        if let literal = token.literal {
            position += 1
            return .constant(literal)
        }
        switch token.kind {
        case .quotedIdentifier(let k):
            position += 1
            return .key(k)
        case .identifier(let word):
            position += 1
            guard isSymbol("(") else { return .key(word) }
            guard let function = ExpressionFunction(rawValue: word.lowercased()) else {
                throw QueryError.unexpected(token: word, column: token.column,
                                            expected: "a function (\(ExpressionFunction.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            position += 1
            try deeper()
            defer { nesting -= 1 }
            var arguments: [ValueExpression] = []
            if !isSymbol(")") {
                arguments.append(try parseSum())
                while isSymbol(",") {
                    position += 1
                    arguments.append(try parseSum())
                }
            }
            guard isSymbol(")") else { throw unexpected("',' or ')' in \(function.rawValue)(…)") }
            position += 1
            guard function.arity.contains(arguments.count) else {
                let wanted = function.arity.upperBound == Int.max ? "at least \(function.arity.lowerBound)"
                    : "\(function.arity.lowerBound)"
                throw QueryError.unexpected(token: word, column: token.column,
                                            expected: "\(wanted) argument(s) to \(function.rawValue), not \(arguments.count)")
            }
            return .function(function, arguments)
        case .symbol("("):
            position += 1
            try deeper()
            defer { nesting -= 1 }
            let e = try parseSum()
            guard isSymbol(")") else { throw unexpected("')'") }
            position += 1
            return e
        default:
            throw unexpected("a value, a key, a function or '('")
        }
    }
}
