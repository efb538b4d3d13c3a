/// One lexical token of the predicate language, with its 1-based column.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        case identifier(String)      // key path component or keyword
        case quotedIdentifier(String) // `any name`: a key path component, never a keyword
        case number(Value)
        case string(String)
        case placeholderValue        // %@ (also %d, %f, %i, %s)
        case placeholderKey          // %K
        case variable(String)        // $NAME
        case symbol(String)          // ( ) { } [ ] , . == != < <= > >= && || ! + - * /
        case end
    }
    var kind: Kind
    var column: Int
    var text: String
}

extension PredicateToken {
    /// The value a literal token stands for: a number, a string, or the words `TRUE`/`YES`,
    /// `FALSE`/`NO`, `NIL`/`NULL` (any case); `nil` for any other token. The predicate and
    /// value-expression parsers read literals alike.
    var literal: Value? {
        switch kind {
        case .number(let v): return v
        case .string(let s): return .string(s)
        case .identifier(let word):
            switch word.uppercased() {
            case "TRUE", "YES": return .bool(true)
            case "FALSE", "NO": return .bool(false)
            case "NIL", "NULL": return .null
            default: return nil
            }
        default: return nil
        }
    }
}

/// Splits a format string into tokens, reporting positioned errors.
struct PredicateTokenizer {
    static func tokenize(_ source: String) throws -> [PredicateToken] {
        let chars = Array(source)
        var tokens: [PredicateToken] = []
        var i = 0
        func add(_ kind: PredicateToken.Kind, _ start: Int, _ end: Int) {
            tokens.append(PredicateToken(kind: kind, column: start + 1, text: String(chars[start..<end])))
        }
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace { i += 1; continue }
            let start = i
            if c.isLetter || c == "_" || c == "@" {
                i += 1
                while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" { i += 1 }
                add(.identifier(String(chars[start..<i])), start, i)
            } else if c == "`" {
                // A quoted key: any name a database's own schema may use (spaces, dashes,
                // a leading digit), `` `` `` for a backtick inside.
                i += 1
                var name = ""
                var closed = false
                while i < chars.count {
                    if chars[i] == "`" {
                        if i + 1 < chars.count, chars[i + 1] == "`" { name.append("`"); i += 2; continue }
                        closed = true; i += 1; break
                    }
                    name.append(chars[i]); i += 1
                }
                guard closed else { throw QueryError.unexpected(token: "`", column: start + 1, expected: "a closing ` after a quoted key") }
                guard !name.isEmpty else { throw QueryError.unexpected(token: "``", column: start + 1, expected: "a key name between backticks") }
                add(.quotedIdentifier(name), start, i)
            } else if c.isNumber || (c == "-" && i + 1 < chars.count && chars[i + 1].isNumber && Self.allowsSign(tokens.last)) {
                i += 1
                var isDouble = false
                while i < chars.count {
                    if chars[i].isNumber { i += 1 }
                    else if chars[i] == ".", !isDouble, i + 1 < chars.count, chars[i + 1].isNumber { isDouble = true; i += 1 }
                    else if chars[i] == "e" || chars[i] == "E" {
                        isDouble = true; i += 1
                        if i < chars.count, chars[i] == "-" || chars[i] == "+" { i += 1 }
                    } else { break }
                }
                let text = String(chars[start..<i])
                if !isDouble, let v = Int64(text) { add(.number(.integer(v)), start, i) }
                else if let d = Double(text) { add(.number(.double(d)), start, i) }
                else { throw QueryError.unexpected(token: text, column: start + 1, expected: "a number") }
            } else if c == "'" || c == "\"" {
                i += 1
                var value = ""
                var closed = false
                while i < chars.count {
                    if chars[i] == "\\", i + 1 < chars.count {
                        let e = chars[i + 1]
                        value.append(e == "n" ? "\n" : e == "t" ? "\t" : e)
                        i += 2
                    } else if chars[i] == c {
                        closed = true; i += 1; break
                    } else {
                        value.append(chars[i]); i += 1
                    }
                }
                guard closed else { throw QueryError.unterminatedString(column: start + 1) }
                add(.string(value), start, i)
            } else if c == "%" {
                guard i + 1 < chars.count else { throw QueryError.unexpected(token: "%", column: start + 1, expected: "%@ or %K") }
                let p = chars[i + 1]
                i += 2
                switch p {
                case "@", "d", "i", "f", "s", "u", "g": add(.placeholderValue, start, i)
                case "K": add(.placeholderKey, start, i)
                default: throw QueryError.unexpected(token: "%\(p)", column: start + 1, expected: "%@ or %K")
                }
            } else if c == "$" {
                i += 1
                while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" { i += 1 }
                guard i > start + 1 else { throw QueryError.unexpected(token: "$", column: start + 1, expected: "a variable name") }
                add(.variable(String(chars[(start + 1)..<i])), start, i)
            } else {
                let two = i + 1 < chars.count ? String(chars[i...(i + 1)]) : ""
                let symbols2 = ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"]
                if symbols2.contains(two) {
                    i += 2
                    add(.symbol(two), start, i)
                } else if "(){}[],.<>=!+-*/".contains(c) {
                    // `+ - * /` are for value expressions (``ValueExpression``); the predicate
                    // parser refuses them where it expects a comparison.
                    i += 1
                    add(.symbol(String(c)), start, i)
                } else {
                    throw QueryError.unexpected(token: String(c), column: start + 1, expected: "a key, value or operator")
                }
            }
        }
        tokens.append(PredicateToken(kind: .end, column: chars.count + 1, text: "end"))
        return tokens
    }

    /// A leading `-` is a sign only where a value may start.
    private static func allowsSign(_ previous: PredicateToken?) -> Bool {
        guard let previous else { return true }
        switch previous.kind {
        case .symbol(let s): return s != ")" && s != "}" && s != "]"
        case .identifier(let w): return PredicateParser.operatorWords[w.uppercased()] != nil || ["AND", "OR", "NOT", "IN", "BETWEEN"].contains(w.uppercased())
        default: return false
        }
    }
}
