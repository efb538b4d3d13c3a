/// Parses the format-string predicate language into a ``ObjectPredicate``.
///
/// Grammar (keywords are case-insensitive):
/// ```
/// predicate  := or
/// or         := and (("OR" | "||") and)*
/// and        := not (("AND" | "&&") not)*
/// not        := ("NOT" | "!") not | primary
/// primary    := "(" predicate ")" | TRUEPREDICATE | FALSEPREDICATE | comparison
/// comparison := [ANY | SOME | ALL | NONE] expr operator ["[" c|d|cd "]"] expr
/// expr       := keypath | number | string | TRUE | YES | FALSE | NO | NIL | NULL
///             | %@ | %K | $NAME | "{" expr ("," expr)* "}" | subquery
/// keypath    := key ("." key)* ["." collop]   (outside a SUBQUERY)
///             | $VAR "." key ("." key)* ["." collop]   (inside one: $VAR is its variable)
/// key        := identifier | `quoted name`
/// collop     := @count | (@sum | @avg | @min | @max) "." key   (after a to-many key)
/// subquery   := SUBQUERY "(" keypath "," $VAR "," predicate ")" "." collop
/// operator   := == | = | != | <> | < | <= | =< | > | >= | =>
///             | BEGINSWITH | ENDSWITH | CONTAINS | LIKE | MATCHES | IN | BETWEEN
/// ```
/// Inside a `SUBQUERY`, every key path starts with its variable (`$t.price`); a bare key
/// path, or one from an enclosing subquery's variable, is an error naming its column. A
/// `SUBQUERY` counts as two levels of nesting (``ObjectPredicate/maximumNesting``).
struct PredicateParser {
    static let operatorWords: [String: ComparisonOperator] = [
        "BEGINSWITH": .beginsWith, "ENDSWITH": .endsWith, "CONTAINS": .contains, "LIKE": .like,
        "MATCHES": .matches, "IN": .in, "BETWEEN": .between,
    ]
    static let operatorSymbols: [String: ComparisonOperator] = [
        "==": .equal, "=": .equal, "!=": .notEqual, "<>": .notEqual, "<": .less, "<=": .lessOrEqual,
        "=<": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual, "=>": .greaterOrEqual,
    ]
    private static let reserved: Set<String> = [
        "AND", "OR", "NOT", "ANY", "SOME", "ALL", "NONE", "TRUEPREDICATE", "FALSEPREDICATE",
        "TRUE", "YES", "FALSE", "NO", "NIL", "NULL",
    ]

    /// Whether `word` reads as a keyword or operator rather than a key (then a key of that
    /// name is written in backticks).
    static func isKeyword(_ word: String) -> Bool {
        reserved.contains(word.uppercased()) || operatorWords[word.uppercased()] != nil
    }

    private var tokens: [PredicateToken]
    var position = 0
    private var arguments: [PredicateArgument]
    private var argumentIndex = 0
    /// How many `(`, `NOT` and `SUBQUERY` levels are open: bounded, so deep input is an error,
    /// never a stack overflow.
    var nesting = 0
    /// The columns of the items of the last literal list parsed (for ``SourceColumns``).
    private var listItemColumns: [Int] = []
    /// The variables of the `SUBQUERY`s being parsed, innermost last.
    var subqueryVariables: [String] = []

    init(_ source: String, arguments: [PredicateArgument]) throws {
        self.tokens = try PredicateTokenizer.tokenize(source)
        self.arguments = arguments
    }

    mutating func parse() throws -> ObjectPredicate {
        let p = try parseOr()
        guard case .end = current.kind else { throw unexpected("AND, OR or end") }
        if argumentIndex < arguments.count { throw QueryError.extraArguments(count: arguments.count - argumentIndex) }
        return p
    }

    var current: PredicateToken { tokens[position] }

    /// The token after the current one (the end token at the end).
    var next: PredicateToken { tokens[min(position + 1, tokens.count - 1)] }

    func unexpected(_ expected: String) -> QueryError {
        .unexpected(token: current.text, column: current.column, expected: expected)
    }

    func isWord(_ word: String) -> Bool {
        if case .identifier(let w) = current.kind { return w.uppercased() == word }
        return false
    }

    func isSymbol(_ s: String) -> Bool {
        if case .symbol(let x) = current.kind { return x == s }
        return false
    }

    mutating func parseOr() throws -> ObjectPredicate {
        var parts = [try parseAnd()]
        while isWord("OR") || isSymbol("||") {
            position += 1
            parts.append(try parseAnd())
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func parseAnd() throws -> ObjectPredicate {
        var parts = [try parseNot()]
        while isWord("AND") || isSymbol("&&") {
            position += 1
            parts.append(try parseNot())
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// Enters one more level of `(`, `NOT` or `SUBQUERY` at the current token.
    mutating func nest() throws {
        nesting += 1
        if nesting > ObjectPredicate.maximumNesting {
            throw QueryError.tooDeep(limit: ObjectPredicate.maximumNesting, column: current.column)
        }
    }

    private mutating func parseNot() throws -> ObjectPredicate {
        if isWord("NOT") || isSymbol("!") {
            try nest()
            position += 1
            defer { nesting -= 1 }
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws -> ObjectPredicate {
        if isSymbol("(") {
            try nest()
            position += 1
            let p = try parseOr()
            guard isSymbol(")") else { throw unexpected("')'") }
            position += 1
            nesting -= 1
            return p
        }
        if isWord("TRUEPREDICATE") { position += 1; return .truePredicate }
        if isWord("FALSEPREDICATE") { position += 1; return .falsePredicate }
        return try parseComparison()
    }

    private mutating func parseComparison() throws -> ObjectPredicate {
        var modifier = ComparisonModifier.direct
        let modifierColumn = current.column
        if isWord("ANY") || isWord("SOME") { modifier = .any; position += 1 }
        else if isWord("ALL") { modifier = .all; position += 1 }
        else if isWord("NONE") { modifier = .none; position += 1 }
        let lhsColumn = current.column
        let lhs = try parseExpression()
        let op: ComparisonOperator
        switch current.kind {
        case .symbol(let s) where Self.operatorSymbols[s] != nil: op = Self.operatorSymbols[s]!
        case .identifier(let w) where Self.operatorWords[w.uppercased()] != nil: op = Self.operatorWords[w.uppercased()]!
        default: throw unexpected("a comparison operator")
        }
        position += 1
        var options: ComparisonOptions = []
        if isSymbol("[") {
            position += 1
            guard case .identifier(let flags) = current.kind, !flags.isEmpty,
                  flags.lowercased().allSatisfy({ $0 == "c" || $0 == "d" || $0 == "n" || $0 == "l" })
            else { throw unexpected("c, d or cd") }
            if flags.lowercased().contains("c") { options.insert(.caseInsensitive) }
            if flags.lowercased().contains("d") { options.insert(.diacriticInsensitive) }
            position += 1
            guard isSymbol("]") else { throw unexpected("']'") }
            position += 1
        }
        let rhsColumn = current.column
        listItemColumns = []
        let rhs = try parseExpression()
        if op == .between {
            guard case .list(let bounds) = rhs, bounds.count == 2 else {
                throw QueryError.invalidOperand("BETWEEN needs a list of two values, like {1, 10}")
            }
        }
        var comparison = PredicateComparison(lhs, op, rhs, modifier: modifier, options: options)
        comparison.columns = SourceColumns(lhs: lhsColumn, rhs: rhsColumn, rhsItems: listItemColumns,
                                           modifier: modifier == .direct ? nil : modifierColumn)
        return .comparison(comparison)
    }

    mutating func parseExpression() throws -> Operand {
        let token = current
        if let literal = token.literal {
            position += 1
            return .constant(literal)
        }
        if case .identifier(let word) = token.kind, word.uppercased() == "SUBQUERY", case .symbol("(") = next.kind {
            return try parseSubquery()
        }
        if let element = subqueryVariables.last {
            // Inside a SUBQUERY, key paths start with its variable.
            switch token.kind {
            case .identifier, .quotedIdentifier, .placeholderKey:
                throw unexpected("a key path starting with $\(element) (the SUBQUERY's variable), like $\(element).key")
            default: break
            }
        }
        switch token.kind {
        case .variable(let name):
            if case .symbol(".") = next.kind { return try parseElementKeyPath() }
            if subqueryVariables.contains(name) {
                throw unexpected("a key of the element after $\(name), like $\(name).key")
            }
            position += 1
            return .variable(name)
        case .placeholderValue:
            position += 1
            switch try nextArgument(token) {
            case .value(let v): return .constant(v)
            case .list(let vs):
                listItemColumns = vs.map { _ in token.column }
                return .list(vs.map(Operand.constant))
            }
        case .placeholderKey:
            position += 1
            guard case .value(.string(let key)) = try nextArgument(token) else {
                throw QueryError.invalidKeyPathArgument(column: token.column, got: "\(arguments[argumentIndex - 1])")
            }
            return try continueKeyPath(key)
        case .symbol("{"):
            position += 1
            var items: [Operand] = []
            var columns: [Int] = []
            if !isSymbol("}") {
                columns.append(current.column)
                items.append(try parseExpression())
                while isSymbol(",") {
                    position += 1
                    columns.append(current.column)
                    items.append(try parseExpression())
                }
            }
            guard isSymbol("}") else { throw unexpected("',' or '}'") }
            position += 1
            listItemColumns = columns
            return .list(items)
        case .identifier(let word):
            guard !Self.reserved.contains(word.uppercased()), Self.operatorWords[word.uppercased()] == nil else {
                throw unexpected("a key path or value")
            }
            position += 1
            return try continueKeyPath(word)
        case .quotedIdentifier(let name):
            position += 1
            return try continueKeyPath(name)
        default:
            throw unexpected("a key path or value")
        }
    }

    /// Reads `.component` continuations after the first key path component.
    mutating func continueKeyPath(_ first: String) throws -> Operand {
        var path = first
        while isSymbol(".") {
            position += 1
            switch current.kind {
            case .identifier(let next), .quotedIdentifier(let next): path += "." + next
            default: throw unexpected("a key after '.'")
            }
            position += 1
        }
        return .keyPath(path)
    }

    private mutating func nextArgument(_ token: PredicateToken) throws -> PredicateArgument {
        guard argumentIndex < arguments.count else { throw QueryError.missingArgument(column: token.column) }
        defer { argumentIndex += 1 }
        return arguments[argumentIndex]
    }
}

extension ObjectPredicate {
    /// Parses a format string: `ObjectPredicate(format: "sector.name == %@ AND price > %@", "Tech", 10)`.
    ///
    /// - Throws: ``QueryError`` naming the column and token at fault, e.g.
    ///   `unexpected 'AN' at column 12, expected AND, OR or end`.
    public init(format: String, _ arguments: PredicateArgument...) throws {
        try self.init(format: format, arguments: arguments)
    }

    /// Parses a format string with an array of arguments.
    public init(format: String, arguments: [PredicateArgument]) throws {
        var parser = try PredicateParser(format, arguments: arguments)
        self = try parser.parse()
    }

    /// The dictionary form: each key equals its value (a list value means `IN`), all ANDed.
    /// `["name": "test"]` is `name == 'test'`. Keys are sorted so the result is stable.
    public init(dictionary: [String: PredicateArgument]) {
        let parts = dictionary.keys.sorted().map { key -> ObjectPredicate in
            switch dictionary[key]! {
            case .value(let v): return .comparison(PredicateComparison(.keyPath(key), .equal, .constant(v)))
            case .list(let vs): return .comparison(PredicateComparison(.keyPath(key), .in, .list(vs.map(Operand.constant))))
            }
        }
        self = parts.isEmpty ? .truePredicate : parts.count == 1 ? parts[0] : .and(parts)
    }

    /// The array form: every format string parsed and ANDed.
    public init(formats: [String]) throws {
        let parts = try formats.map { try ObjectPredicate(format: $0) }
        self = parts.isEmpty ? .truePredicate : parts.count == 1 ? parts[0] : .and(parts)
    }
}
