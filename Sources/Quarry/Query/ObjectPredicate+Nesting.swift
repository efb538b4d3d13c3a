extension ObjectPredicate {
    /// How deep `(` and `NOT` may nest (and `AND`/`OR` groups inside each other): deeper input
    /// is refused with ``QueryError/tooDeep(limit:column:)`` so no recursive routine (parser,
    /// formatter, evaluator, SQL compiler) can overflow the stack, on any thread.
    public static let maximumNesting = 16

    /// How many levels of `NOT`, `AND`, `OR` and `SUBQUERY` the tree has above its deepest
    /// leaf, counted with an explicit stack (no recursion, so any tree built in code can be measured).
    public var nestingDepth: Int {
        var deepest = 0
        var stack: [(ObjectPredicate, Int)] = [(self, 0)]
        var operands: [Operand] = []
        while let (p, depth) = stack.popLast() {
            deepest = max(deepest, depth)
            switch p {
            case .not(let q): stack.append((q, depth + 1))
            case .and(let ps), .or(let ps): for q in ps { stack.append((q, depth + 1)) }
            case .comparison(let c):
                operands = [c.lhs, c.rhs]
                while let operand = operands.popLast() {
                    switch operand {
                    case .subquery(let s): stack.append((s.predicate, depth + 1))
                    case .list(let items): operands += items
                    case .keyPath, .constant, .variable: break
                    }
                }
            case .truePredicate, .falsePredicate: break
            }
        }
        return deepest
    }

    /// Throws ``QueryError/tooDeep(limit:column:)`` when the tree nests deeper than the parser allows.
    func checkNesting() throws {
        // A parsed predicate nests at most `maximumNesting` parentheses and NOTs; its AND/OR
        // levels alternate with parentheses, so twice the limit bounds every accepted tree.
        if nestingDepth > 2 * Self.maximumNesting + 2 {
            throw QueryError.tooDeep(limit: Self.maximumNesting, column: nil)
        }
    }
}
