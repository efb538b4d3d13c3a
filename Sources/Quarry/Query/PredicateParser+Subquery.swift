extension PredicateParser {
    /// `SUBQUERY(collection, $v, predicate).@count` (or `.@sum.key`, `.@avg.key`, `.@min.key`,
    /// `.@max.key`), the current token being `SUBQUERY`.
    mutating func parseSubquery() throws -> Operand {
        // Two levels: the subquery's parentheses and its predicate's scope (see the grammar).
        try nest()
        try nest()
        defer { nesting -= 2 }
        position += 2  // SUBQUERY (
        let collectionToken = current
        guard case .keyPath(let collection) = try parseExpression() else {
            throw QueryError.unexpected(token: collectionToken.text, column: collectionToken.column,
                                        expected: "the key path of a to-many relationship to filter")
        }
        try expectSymbol(",")
        guard case .variable(let variable) = current.kind else { throw unexpected("a variable naming each element, like $t") }
        guard !subqueryVariables.contains(variable) else {
            throw unexpected("a variable that no enclosing SUBQUERY uses")
        }
        position += 1
        try expectSymbol(",")
        subqueryVariables.append(variable)
        let predicate = try parseOr()
        subqueryVariables.removeLast()
        try expectSymbol(")")
        let operationExpected = ".@count (or .@sum, .@avg, .@min or .@max and a key) after SUBQUERY(…)"
        guard isSymbol(".") else { throw unexpected(operationExpected) }
        position += 1
        guard case .identifier(let word) = current.kind else { throw unexpected(operationExpected) }
        let operation: PredicateSubquery.Operation
        if word == "@count" {
            operation = .count
            position += 1
        } else if let op = CollectionOperator(rawValue: word) {
            position += 1
            guard isSymbol(".") else { throw unexpected("'.' and a key after \(op.rawValue)") }
            position += 1
            switch current.kind {
            case .identifier(let key), .quotedIdentifier(let key): operation = .aggregate(op, attribute: key)
            default: throw unexpected("a key after \(op.rawValue).")
            }
            position += 1
        } else {
            throw unexpected(operationExpected)
        }
        return .subquery(PredicateSubquery(collection, variable: variable, where: predicate, operation))
    }

    /// `$v.key…` inside the SUBQUERY of `$v`, the current token being `$v`: the key path
    /// relative to the element.
    mutating func parseElementKeyPath() throws -> Operand {
        guard case .variable(let name) = current.kind else { preconditionFailure("called at a variable") }
        guard let element = subqueryVariables.last else {
            throw unexpected("a value: $\(name).key is a key path only inside SUBQUERY(…, $\(name), …)")
        }
        guard name == element else {
            throw unexpected(subqueryVariables.contains(name)
                ? "a key path starting with $\(element): an inner SUBQUERY reads its own elements only"
                : "a key path starting with $\(element) (the SUBQUERY's variable)")
        }
        position += 2  // $v .
        switch current.kind {
        case .identifier(let key), .quotedIdentifier(let key):
            position += 1
            return try continueKeyPath(key)
        default:
            throw unexpected("a key after '$\(name).'")
        }
    }

    /// Steps over symbol `s`, or throws naming what was found instead.
    private mutating func expectSymbol(_ s: String) throws {
        guard isSymbol(s) else { throw unexpected("'\(s)'") }
        position += 1
    }
}
